// kgen AscendC CPU emulator -- one base block of a Matmul: the multiply-accumulate of a block of C
// from blocks of A and B (the cube unit's fp32 / int32 accumulation in K order, starting from the
// bias), and writing a block out with the conversion and atomic modes of the Fixpipe path.
// Not an AscendC API: internal to kgen_sim/matmul/matmul_impl.h.
#pragma once
#include <algorithm>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "kgen_sim/cube/gemm_kernel.h"
#include "kgen_sim/tensor.h"

namespace kgen {
namespace mm {

/// A computed block of C: rows x cols at (m0, n0) of the single-core C, in the accumulator type.
template <class Acc>
struct Block {
    uint32_t m0 = 0, n0 = 0, rows = 0, cols = 0;
    std::vector<Acc> v;
};

/// out = bias + a[rows, k] x b[k, cols] (out += a x b when `accumulate`), summed in K order: each element of
/// out adds its K products one after another (no reassociation, no fused multiply-add), as the scalar loop
/// would; the loop works on register blocks of 4 rows x 8 columns (kgen_sim/cube/gemm_kernel.h), the speed of
/// the emulated cube unit (the block's inputs are already the accumulator type).
template <class Acc>
inline void mac_block(const std::vector<Acc>& a, const std::vector<Acc>& b, const std::vector<Acc>* bias, uint32_t rows, uint32_t cols,
                      uint64_t k, bool accumulate, Block<Acc>& out) {
    if (!accumulate) {
        out.v.assign(uint64_t(rows) * cols, Acc(0));
        if (bias)
            for (uint32_t r = 0; r < rows; ++r) std::copy(bias->begin(), bias->begin() + cols, out.v.begin() + uint64_t(r) * cols);
    }
    out.rows = rows;
    out.cols = cols;
    kgen::cube::gemm_accumulate(a.data(), k, b.data(), cols, out.v.data(), cols, rows, cols, k);
}

inline std::mutex& atomic_mutex() { static std::mutex m; return m; }

/// Store one converted value, honouring an atomic mode (1 add, 2 max, 3 min) in C's type.
template <class D, class Acc>
inline void store(D* p, Acc v, int atomic) {
    D nv = static_cast<D>(v);
    if (atomic == 0) { *p = nv; return; }
    using W = std::conditional_t<std::is_integral_v<D>, int64_t, float>;
    W o = static_cast<W>(*p), x = static_cast<W>(nv);
    *p = static_cast<D>(atomic == 1 ? o + x : atomic == 2 ? (o > x ? o : x) : (o < x ? o : x));
}

/// Write block `b` (converted to D, one rounding) at (r0, c0) of a matrix with row stride `ld` in GM
/// (`gm`, checked by the GM access policy) or in a LocalTensor of `local_size` elements at `base`;
/// `pad` > 0 zero-fills that many elements after each row (ND_ALIGN). Traced on the FIX pipe.
template <class D, class Acc>
inline void write_block(const Block<Acc>& b, D* base, uint64_t local_size, const AscendC::GlobalTensor<D>* gm, uint64_t r0, uint64_t c0,
                        uint64_t ld, int atomic, uint64_t pad, const char* api) {
    std::unique_lock<std::mutex> lk(atomic_mutex(), std::defer_lock);
    if (atomic) lk.lock();
    for (uint32_t r = 0; r < b.rows; ++r) {
        uint64_t start = (r0 + r) * ld + c0;
        if (gm) gm->check(start, b.cols + pad, api);
        else if (start + b.cols > local_size)
            fail("ub-out-of-bounds", "%s writes elements [%llu, %llu) of a LocalTensor of %llu elements", api, (unsigned long long)start,
                 (unsigned long long)(start + b.cols), (unsigned long long)local_size);
        for (uint32_t c = 0; c < b.cols; ++c) store(base + start + c, b.v[uint64_t(r) * b.cols + c], atomic);
        for (uint64_t c = 0; c < pad; ++c) base[start + b.cols + c] = D(0);
    }
    trace("Matmul::Fixpipe", Pipe::FIX, uint64_t(b.rows) * b.cols * sizeof(D), b.rows, 0, 0, sizeof(D));
}

/// Write block `b` at (r0, c0) of a C stored in NZ: element (r, c) at ((c / cz) * rows + r) * cz + c % cz.
template <class D, class Acc>
inline void write_block_nz(const Block<Acc>& b, D* base, uint64_t local_size, const AscendC::GlobalTensor<D>* gm, uint64_t r0,
                           uint64_t c0, uint64_t rows, uint64_t cz, int atomic, const char* api) {
    std::unique_lock<std::mutex> lk(atomic_mutex(), std::defer_lock);
    if (atomic) lk.lock();
    for (uint32_t r = 0; r < b.rows; ++r)
        for (uint32_t c = 0; c < b.cols; ++c) {
            const uint64_t col = c0 + c, at = ((col / cz) * rows + r0 + r) * cz + col % cz;
            if (gm) gm->check(at, 1, api);
            else if (at >= local_size)
                fail("ub-out-of-bounds", "%s writes element %llu of a LocalTensor of %llu elements", api, (unsigned long long)at,
                     (unsigned long long)local_size);
            store(base + at, b.v[uint64_t(r) * b.cols + c], atomic);
        }
    trace("Matmul::Fixpipe", Pipe::FIX, uint64_t(b.rows) * b.cols * sizeof(D), b.rows, 0, 0, sizeof(D));
}

}  // namespace mm
}  // namespace kgen
