// kgen AscendC CPU emulator -- the cube unit's matrix multiply-accumulate (Mmad).
//
// Documented rules followed (AscendC Mmad / MmadParams, dav-2201):
//  * Mmad(c, a, b, params): C[m, n] (+)= sum_k A[m, k] * B[k, n] with A in A2 (L0A, ZZ layout),
//    B in B2 (L0B, ZN layout) and C in CO1 (L0C, NZ layout); the layouts are in layout.h.
//    Types: half x half -> float, bfloat16_t x bfloat16_t -> float, int8_t x int8_t -> int32_t,
//    int4b_t x int4b_t -> int32_t (16 x 64 fractals, two elements per byte; no bias form), float x float
//    -> float. Products are exact and summed in the result type (fp32 / int32).
//  * m, n, k are the valid sizes; the unit works on whole fractals, so A covers ceil(m/16)*16 rows
//    x ceil(k/C0)*C0 columns, B ceil(k/C0)*C0 x ceil(n/16)*16, C ceil(m/16)*16 x ceil(n/16)*16.
//    The hardware addresses operands by start address only: an operand tensor smaller than that is a
//    warning (`mmad-operand-size`: the instruction uses the memory past it, as the official mmad example
//    relies on when it rounds n up beyond its L0C tensor), running past the end of the memory an error.
//    The reduction runs over the k valid columns; rows m.. and columns n.. of the last fractals are
//    computed too (the hardware writes whole fractals).
//  * Initial value of C: cmatrixInitVal = true (the default) starts from 0. With cmatrixInitVal =
//    false (or the older isBias = true) C starts from: the bias tensor when one is passed (the bias form,
//    bias[n] added to every row, bias in C2 (bias table) or CO1); else the bias table at address 0 when
//    cmatrixSource = true; else the current contents of CO1 (accumulate).
//  * kDirectionAlign (float inputs only): A's K extent in L0A is padded to 16 rather than 8.
//  * GEMV: with m = 1 the cube reads A as one row of k contiguous elements (the L0A tensor holds k
//    rounded up to a 512-byte fractal) instead of a 16-row fractal; dav-2201 enables this mode
//    automatically and cannot turn it off (disableGemv is a dav-3510 field).
//  * A2/B2 start on 512-byte boundaries and CO1 on 64 bytes (`cube-misaligned`); m, n, k <= 4095.
//  * unitFlag (Mmad/Fixpipe fine-grained overlap) does not change results; it is accepted.
//  * Speed: A and B are unpacked once per instruction and multiplied in register blocks (gemm_kernel.h); each
//    element still sums its K products in K order from 0, then adds its initial value, as before.
//  * Trace: pipe M, `repeats` = number of 16 x 16 x C0 fractal products (the cube does one per cycle:
//    16x16x16 for 2-byte types, 16x16x32 for int8, 16x16x8 for float), bytes = A + B bytes read.
//
// @api Mmad MmadParams MmadWithSparse
#pragma once
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kgen_sim/cube/gemm_kernel.h"
#include "kgen_sim/cube/layout.h"

namespace AscendC {

struct MmadParams {
    MmadParams() = default;
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn, bool enWinogradAIn,
               bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn), enWinogradA(enWinogradAIn),
          enWinogradB(enWinogradBIn) {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn, bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn), cmatrixInitVal(cmatrixInitValIn) {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
    bool disableGemv = false;  // dav-3510 only: the emulator follows dav-2201 and ignores it
};

}  // namespace AscendC

namespace kgen::cube {

/// d[i] = element (start + i) of s as the accumulator type C, for i < n (the exact widening conversion).
template <typename C, typename A>
inline void to_acc_run(C* d, const A* s, uint64_t start, uint32_t n) {
    if constexpr (std::is_same_v<A, half> && std::is_same_v<C, float>) {
        const float* t = kgen::f16_to_f32_table();
        for (uint32_t i = 0; i < n; ++i) d[i] = t[s[start + i].bits];
    } else if constexpr (std::is_same_v<A, bfloat16_t> && std::is_same_v<C, float>) {
        for (uint32_t i = 0; i < n; ++i) d[i] = bf16_bits_to_f32(s[start + i].bits);
    } else if constexpr (is_int4_v<A>) {
        for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<C>(load_elem(s, start + i));
    } else {
        for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<C>(s[start + i]);
    }
}

/// MmadWithSparse: the K position of dense value kd (of its 4:2 group kd / 2) in column r of B fractal f, from the
/// index buffer LoadDataWithSparse filled: one 128-byte index fractal per B fractal, 16 rows (the fractal's n) of 8
/// bytes, four 2-bit indices per byte from the low bits, one index per dense value. The first value of a group
/// sits at its index (0..2) among the group's elements 0..2, the second at index + 1 among elements 1..3, or on the
/// first's element when that is not before it (the documented selection table's "X/X" rows).
inline uint32_t sparse_position(const uint8_t* idx, uint32_t f, uint32_t r, uint32_t kd) {
    const uint32_t in_frac = kd % 32, first = in_frac & ~1u;
    const uint8_t* row = idx + uint64_t(f) * 128 + r * 8;
    auto entry = [&](uint32_t e) { return uint32_t(row[e / 4] >> ((e % 4) * 2)) & 3u; };
    const uint32_t p1 = entry(first), p2 = std::max(entry(first + 1) + 1, p1);
    if (p1 > 2)
        fail("matmul-sparse-index", "MmadWithSparse: sparse index %u for the first value of a group (B fractal %u, row %u): it "
             "selects among elements 0..2", p1, f, r);
    return 4 * (kd / 2) + (kd % 2 ? p2 : p1);
}

template <typename C, typename A>
inline constexpr bool mmad_types_ok() {
    return (std::is_same_v<C, float> && (std::is_same_v<A, half> || std::is_same_v<A, bfloat16_t> || std::is_same_v<A, float>)) ||
           (std::is_same_v<C, int32_t> && (std::is_same_v<A, int8_t> || is_int4_v<A>));
}

template <typename C, typename A, typename B, typename Bias>
inline void mmad(const AscendC::LocalTensor<C>& c, const AscendC::LocalTensor<A>& a, const AscendC::LocalTensor<B>& b,
                 const AscendC::LocalTensor<Bias>* bias, const AscendC::MmadParams& p, const uint8_t* sparse_index = nullptr,
                 const char* api = "Mmad") {
    static_assert(std::is_same_v<A, B>, "Mmad: A and B must have the same element type");
    static_assert(mmad_types_ok<C, A>(),
                  "Mmad: supported types are half/bfloat16_t/float -> float and int8_t/int4b_t -> int32_t (dst, a, b)");
    require_mem(c, api, "the result (dst)", {Mem::L0C}, "CO1 (L0C)");
    require_mem(a, api, "the left matrix (fm)", {Mem::L0A}, "A2 (L0A)");
    require_mem(b, api, "the right matrix (filter)", {Mem::L0B}, "B2 (L0B)");
    require_align(a, api, "the left matrix", FRACTAL_BYTES);
    require_align(b, api, "the right matrix", FRACTAL_BYTES);
    require_align(c, api, "the result", 64);
    if (p.m > 4095 || p.n > 4095 || p.k > 4095)
        fail("mmad-param", "%s: m, n and k must be at most 4095 (got m=%u n=%u k=%u)", api, p.m, p.n, p.k);
    if (p.m == 0 || p.n == 0 || p.k == 0) {
        warn("mmad-param", "%s with m=%u n=%u k=%u computes nothing", api, p.m, p.n, p.k);
        return;
    }
    constexpr uint32_t C0 = c0<A>();
    // kDirectionAlign (float inputs): the K extent of A in L0A is padded to 16 instead of C0 = 8
    const uint32_t kA = (std::is_same_v<A, float> && p.kDirectionAlign) ? align_up(p.k, 16) : p.k;
    const uint32_t M1 = ceil_div(p.m, BLOCK), N1 = ceil_div(p.n, BLOCK), K1 = ceil_div(p.k, C0), K1A = ceil_div(kA, C0);
    const bool gemv = p.m == 1;
    if (gemv)
        require_elems_in_memory(a, align_up(p.k, fractal_elems<A>()), api, "the left vector (m = 1: GEMV, k elements in whole fractals)",
                      "mmad-operand-size");
    else
        require_elems_in_memory(a, uint64_t(M1) * K1A * BLOCK * C0, api, "the left matrix (m x k in 16 x C0 fractals)", "mmad-operand-size");
    // MmadWithSparse: B holds k / 2 densified rows (two of every four), placed by the index buffer
    const uint32_t KB = sparse_index ? ceil_div(p.k, 2) : p.k, K1B = ceil_div(KB, C0);
    require_elems_in_memory(b, uint64_t(K1B) * N1 * BLOCK * C0, api, "the right matrix (k x n in C0 x 16 fractals)", "mmad-operand-size");
    require_elems_in_memory(c, uint64_t(M1) * N1 * L0C_FRACTAL, api, "the result (m x n in 16 x 16 fractals)", "mmad-operand-size");
    const uint32_t Mp = M1 * BLOCK, Np = N1 * BLOCK;

    // where C starts from
    const bool accumulate = !p.cmatrixInitVal || p.isBias;
    const Bias* bias_row = nullptr;
    if (is_int4_v<A> && bias)
        fail("mmad-param", "%s: the bias form is not available for int4b_t inputs on dav-2201 (bias types: int8 -> int32, "
             "half/bfloat16/float -> float)", api);
    if (accumulate && bias) {
        require_mem(*bias, api, "the bias", {Mem::BT, Mem::L0C}, "C2 (bias table) or CO1 (L0C)");
        require_elems(*bias, Np, api, "the bias (one value per column of n rounded up to 16)", "mmad-operand-size");
        bias_row = bias->raw();
    }
    const C* bt_row = nullptr;
    if (accumulate && !bias && p.cmatrixSource) bt_row = reinterpret_cast<const C*>(core().mem_base(Mem::BT));

    // unpack A (ZZ, or one row for GEMV) and B (ZN) into dense row-major matrices of the accumulator type, once
    // per instruction (a run of C0 elements at a time); multiply-accumulate them in blocks (gemm_kernel.h); write
    // the result 16 elements (one fractal row) at a time
    const A* ap = a.raw();
    const B* bp = b.raw();
    C* cp = c.raw();
    const uint32_t rows = gemv ? 1u : Mp, K = p.k;
    thread_local std::vector<C> ad, bd, acc;
    ad.resize(uint64_t(rows) * K);
    bd.resize(uint64_t(K) * Np);
    acc.resize(uint64_t(rows) * Np);
    if (gemv) {
        to_acc_run(ad.data(), ap, 0, K);
    } else {
        for (uint32_t m1 = 0; m1 < M1; ++m1)
            for (uint32_t k1 = 0; k1 < K1; ++k1) {
                const uint64_t base = (uint64_t(m1) * K1A + k1) * BLOCK * C0;
                const uint32_t kn = std::min(C0, K - k1 * C0);
                for (uint32_t r = 0; r < BLOCK; ++r)
                    to_acc_run(ad.data() + uint64_t(m1 * BLOCK + r) * K + k1 * C0, ap, base + r * C0, kn);
            }
    }
    C frac[BLOCK * C0];
    if (sparse_index) std::fill(bd.begin(), bd.end(), C(0));
    for (uint32_t k1 = 0; k1 < K1B; ++k1)
        for (uint32_t n1 = 0; n1 < N1; ++n1) {
            to_acc_run(frac, bp, (uint64_t(k1) * N1 + n1) * BLOCK * C0, BLOCK * C0);
            const uint32_t kn = std::min(C0, KB - k1 * C0);
            for (uint32_t e = 0; e < kn; ++e) {
                const uint32_t kd = k1 * C0 + e;
                if (!sparse_index) {
                    C* d = bd.data() + uint64_t(kd) * Np + n1 * BLOCK;
                    for (uint32_t r = 0; r < BLOCK; ++r) d[r] = frac[r * C0 + e];
                    continue;
                }
                // dense value kd of column n sits at K position 4 * (kd / 2) + its index (sparse_position)
                for (uint32_t r = 0; r < BLOCK; ++r) {
                    const uint32_t kk = sparse_position(sparse_index, k1 * N1 + n1, r, kd);
                    if (kk < K) bd[uint64_t(kk) * Np + n1 * BLOCK + r] += frac[r * C0 + e];
                }
            }
        }
    gemm_accumulate(ad.data(), K, bd.data(), Np, acc.data(), Np, rows, Np, K, /*from_zero=*/true);
    for (uint32_t n1 = 0; n1 < N1; ++n1)
        for (uint32_t m = 0; m < rows; ++m) {
            C* out = cp + l0c_offset(m, n1 * BLOCK, p.m);
            const C* sum = acc.data() + uint64_t(m) * Np + n1 * BLOCK;
            if (!accumulate) {
                std::memcpy(static_cast<void*>(out), sum, BLOCK * sizeof(C));
            } else if (bias_row) {
                for (uint32_t e = 0; e < BLOCK; ++e) out[e] = static_cast<C>(bias_row[n1 * BLOCK + e]) + sum[e];
            } else if (bt_row) {
                for (uint32_t e = 0; e < BLOCK; ++e) out[e] = bt_row[n1 * BLOCK + e] + sum[e];
            } else {
                for (uint32_t e = 0; e < BLOCK; ++e) out[e] = out[e] + sum[e];
            }
        }
    trace("Mmad", Pipe::M, uint64_t(M1) * K1 * FRACTAL_BYTES + uint64_t(K1) * N1 * FRACTAL_BYTES, M1 * N1 * K1, 0, 0, sizeof(A));
}

}  // namespace kgen::cube

namespace AscendC {

/// Mmad with a 4:2 structured-sparse B (int8 -> int32): A in L0A holds the full K, B in L0B the k / 2 densified
/// rows LoadDataWithSparse loaded with their index fractals; each dense value multiplies the A element its index
/// selects (kgen::cube::sparse_position). Otherwise as Mmad.
template <typename T = int32_t, typename U = int8_t>
inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter, const MmadParams& p) {
    static_assert(std::is_same_v<T, int32_t> && std::is_same_v<U, int8_t>, "MmadWithSparse: dst int32_t, fm and filter int8_t");
    kgen::cube::mmad<T, U, U, T>(dst, fm, filter, nullptr, p, kgen::cube::sparse_index_buffer().data(), "MmadWithSparse");
}

template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p) {
    kgen::cube::mmad<T, U, S, T>(dst, fm, filter, nullptr, p);
}
/// Bias form: C starts from bias[n] (in C2 or CO1) unless cmatrixInitVal is true.
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const LocalTensor<V>& bias,
                 const MmadParams& p) {
    kgen::cube::mmad<T, U, S, V>(dst, fm, filter, &bias, p);
}

}  // namespace AscendC
