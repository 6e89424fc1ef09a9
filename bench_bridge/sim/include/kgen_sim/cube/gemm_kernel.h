// kgen AscendC CPU emulator -- the multiply-accumulate loop behind the emulated cube unit (Mmad and the
// Matmul high-level API's base blocks). Not an AscendC API.
//
// Rule kept (AscendC Mmad page, dav-2201): the cube unit sums the products of one result element in the
// accumulator type (fp32 for half / bfloat16_t / float inputs, int32 for int8 / int4). The emulator adds the
// K products of each element one after another, in K order, starting from the element's initial value,
// with a separate multiply and add (no fused multiply-add, no reassociation): for 2-byte and integer
// inputs the products are exact, so the result does not depend on how the loop is blocked.
//
// Speed: the operands are dense row-major matrices of the accumulator type (the callers unpack the fractal
// layouts once per instruction); the loop works on register blocks of 4 rows x 8 columns (GCC / clang
// vector extensions, which the -O1 build keeps as SIMD), each block reading its 8-column panel of B once
// per K step. No per-element bookkeeping: bounds, layouts and tracing are the callers' and happen once per
// instruction.
#pragma once
#include <cstdint>
#include <cstring>

namespace kgen::cube {

/// c[r * ldc + j] += sum over kk in [0, k) of a[r * lda + kk] * b[kk * ldb + j], for r < rows and j < cols;
/// each element adds its products in K order (see the rule above).
template <class Acc>
inline void gemm_accumulate(const Acc* a, uint64_t lda, const Acc* b, uint64_t ldb, Acc* c, uint64_t ldc, uint32_t rows,
                            uint32_t cols, uint64_t k) {
    typedef Acc Vec __attribute__((vector_size(8 * sizeof(Acc))));
    constexpr uint32_t W = 8, R = 4;
    const uint32_t vcols = cols / W * W, vrows = rows / R * R;
    // vectors pass by reference only: a 32-byte vector returned by value changes the ABI without AVX (-Wpsabi)
    auto ld = [](Vec& v, const Acc* p) { std::memcpy(&v, p, sizeof v); };
    auto st = [](Acc* p, const Vec& v) { std::memcpy(p, &v, sizeof v); };
    for (uint32_t j = 0; j < vcols; j += W) {
        uint32_t r = 0;
        for (; r < vrows; r += R) {
            const Acc* a0 = a + uint64_t(r) * lda;
            const Acc* a1 = a0 + lda;
            const Acc* a2 = a1 + lda;
            const Acc* a3 = a2 + lda;
            Acc* c0 = c + uint64_t(r) * ldc + j;
            Vec s0, s1, s2, s3, vb;
            ld(s0, c0);
            ld(s1, c0 + ldc);
            ld(s2, c0 + 2 * ldc);
            ld(s3, c0 + 3 * ldc);
            const Acc* bp = b + j;
            for (uint64_t kk = 0; kk < k; ++kk, bp += ldb) {
                ld(vb, bp);
                Vec p0 = vb * a0[kk];
                Vec p1 = vb * a1[kk];
                Vec p2 = vb * a2[kk];
                Vec p3 = vb * a3[kk];
                s0 += p0;
                s1 += p1;
                s2 += p2;
                s3 += p3;
            }
            st(c0, s0);
            st(c0 + ldc, s1);
            st(c0 + 2 * ldc, s2);
            st(c0 + 3 * ldc, s3);
        }
        for (; r < rows; ++r) {
            const Acc* ar = a + uint64_t(r) * lda;
            Acc* cr = c + uint64_t(r) * ldc + j;
            Vec s, vb;
            ld(s, cr);
            const Acc* bp = b + j;
            for (uint64_t kk = 0; kk < k; ++kk, bp += ldb) {
                ld(vb, bp);
                Vec p = vb * ar[kk];
                s += p;
            }
            st(cr, s);
        }
    }
    for (uint32_t j = vcols; j < cols; ++j)
        for (uint32_t r = 0; r < rows; ++r) {
            const Acc* ar = a + uint64_t(r) * lda;
            Acc s = c[uint64_t(r) * ldc + j];
            for (uint64_t kk = 0; kk < k; ++kk) {
                const Acc p = ar[kk] * b[kk * ldb + j];
                s += p;
            }
            c[uint64_t(r) * ldc + j] = s;
        }
}

}  // namespace kgen::cube
