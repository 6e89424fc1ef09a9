// kgen AscendC CPU emulator -- the multiply-accumulate loop behind the emulated cube unit (Mmad and the
// Matmul high-level API's base blocks). Not an AscendC API.
//
// Rule kept (AscendC Mmad page, dav-2201): the cube unit sums the products of one result element in the
// accumulator type (fp32 for half / bfloat16_t / float inputs, int32 for int8 / int4). The emulator adds the
// K products of each element one after another, in K order, starting from the element's initial value,
// with a separate multiply and add (no fused multiply-add, no reassociation): for 2-byte and integer
// inputs the products are exact, so the result does not depend on how the loop is blocked.
//
// Speed (on x86-64 with AVX2 the loop is compiled for it and chosen at run time): the operands are dense row-major matrices of the accumulator type (the callers unpack the fractal
// layouts once per instruction); the loop works on register blocks of 4 rows x 8 columns (GCC / clang
// vector extensions, which the -O1 build keeps as SIMD), each block reading its 8-column panel of B once
// per K step. No per-element bookkeeping: bounds, layouts and tracing are the callers' and happen once per
// instruction.
#pragma once
#include <cstdint>
#include <cstring>

namespace kgen::cube {

/// c[r * ldc + j] (+)= sum over kk in [0, k) of a[r * lda + kk] * b[kk * ldb + j], for r < rows and j < cols;
/// each element adds its products in K order (see the rule above), starting from c's value, or from 0 when
/// `from_zero` (c is then only written).
template <class Acc>
__attribute__((always_inline)) inline void gemm_body(const Acc* a, uint64_t lda, const Acc* b, uint64_t ldb, Acc* c, uint64_t ldc,
                                                     uint32_t rows, uint32_t cols, uint64_t k, bool from_zero) {
    typedef Acc Vec __attribute__((vector_size(8 * sizeof(Acc))));
    constexpr uint32_t W = 8, R = 4;
    const uint32_t vcols = cols / W * W, vrows = rows / R * R;
    // no helper functions: everything inlines into the AVX2 copy too (vectors are never passed by value, which
    // changes the ABI without AVX: -Wpsabi)
#define KGEN_GEMM_LDC(v, p) \
    do { if (from_zero) v = Vec{}; else std::memcpy(&v, (p), sizeof v); } while (0)
    for (uint32_t j = 0; j < vcols; j += W) {
        uint32_t r = 0;
        for (; r < vrows; r += R) {
            const Acc* a0 = a + uint64_t(r) * lda;
            const Acc* a1 = a0 + lda;
            const Acc* a2 = a1 + lda;
            const Acc* a3 = a2 + lda;
            Acc* c0 = c + uint64_t(r) * ldc + j;
            Vec s0, s1, s2, s3, vb;
            KGEN_GEMM_LDC(s0, c0);
            KGEN_GEMM_LDC(s1, c0 + ldc);
            KGEN_GEMM_LDC(s2, c0 + 2 * ldc);
            KGEN_GEMM_LDC(s3, c0 + 3 * ldc);
            const Acc* bp = b + j;
            for (uint64_t kk = 0; kk < k; ++kk, bp += ldb) {
                std::memcpy(&vb, bp, sizeof vb);
                Vec p0 = vb * a0[kk];
                Vec p1 = vb * a1[kk];
                Vec p2 = vb * a2[kk];
                Vec p3 = vb * a3[kk];
                s0 += p0;
                s1 += p1;
                s2 += p2;
                s3 += p3;
            }
            std::memcpy(c0, &s0, sizeof s0);
            std::memcpy(c0 + ldc, &s1, sizeof s1);
            std::memcpy(c0 + 2 * ldc, &s2, sizeof s2);
            std::memcpy(c0 + 3 * ldc, &s3, sizeof s3);
        }
        for (; r < rows; ++r) {
            const Acc* ar = a + uint64_t(r) * lda;
            Acc* cr = c + uint64_t(r) * ldc + j;
            Vec s, vb;
            KGEN_GEMM_LDC(s, cr);
            const Acc* bp = b + j;
            for (uint64_t kk = 0; kk < k; ++kk, bp += ldb) {
                std::memcpy(&vb, bp, sizeof vb);
                Vec p = vb * ar[kk];
                s += p;
            }
            std::memcpy(cr, &s, sizeof s);
        }
    }
    for (uint32_t j = vcols; j < cols; ++j)
        for (uint32_t r = 0; r < rows; ++r) {
            const Acc* ar = a + uint64_t(r) * lda;
            Acc s = from_zero ? Acc(0) : c[uint64_t(r) * ldc + j];
            for (uint64_t kk = 0; kk < k; ++kk) {
                const Acc p = ar[kk] * b[kk * ldb + j];
                s += p;
            }
            c[uint64_t(r) * ldc + j] = s;
        }
}

#undef KGEN_GEMM_LDC

#if defined(__x86_64__)
/// The same loop compiled for AVX2 (8 floats or int32 per register; no FMA: the multiply and the add stay
/// two roundings), picked at run time where the CPU has it.
template <class Acc>
__attribute__((target("avx2"), noinline)) void gemm_avx2(const Acc* a, uint64_t lda, const Acc* b, uint64_t ldb, Acc* c, uint64_t ldc,
                                                         uint32_t rows, uint32_t cols, uint64_t k, bool from_zero) {
    gemm_body(a, lda, b, ldb, c, ldc, rows, cols, k, from_zero);
}
inline bool cpu_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}
#endif

/// K is taken in slices of 256 (each slice's panel of B stays in the first-level cache); the slices run in K
/// order and each starts from what the previous one left, so every element still adds its products in K order.
template <class Acc>
inline void gemm_accumulate(const Acc* a, uint64_t lda, const Acc* b, uint64_t ldb, Acc* c, uint64_t ldc, uint32_t rows, uint32_t cols,
                            uint64_t k, bool from_zero = false) {
    constexpr uint64_t KC = 256;
    if (k == 0) {
        if (from_zero)
            for (uint32_t r = 0; r < rows; ++r) std::memset(static_cast<void*>(c + uint64_t(r) * ldc), 0, cols * sizeof(Acc));
        return;
    }
    for (uint64_t k0 = 0; k0 < k; k0 += KC) {
        const uint64_t kn = k - k0 < KC ? k - k0 : KC;
        const bool zero = from_zero && k0 == 0;
#if defined(__x86_64__)
        if (cpu_has_avx2()) {
            gemm_avx2(a + k0, lda, b + k0 * ldb, ldb, c, ldc, rows, cols, kn, zero);
            continue;
        }
#endif
        gemm_body(a + k0, lda, b + k0 * ldb, ldb, c, ldc, rows, cols, kn, zero);
    }
}

}  // namespace kgen::cube
