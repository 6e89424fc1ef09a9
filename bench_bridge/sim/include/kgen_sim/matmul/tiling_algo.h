// kgen host-side emulation -- how the Matmul tiling classes choose a TCubeTiling (a pure function).
//
// CANN documents what the fields mean and the limits they must respect, not its search; kgen uses
// the rule below (its own), so field values are reproducible by hand:
//  1. Checks (GetTiling returns -1): M, N, K >= 1 (an axis SetShape leaves at -1 takes the original
//     shape's value, so SetOrgShape(M, N, K) + SetShape(-1, -1, K) tile the whole problem); the original shape (SetOrgShape) not smaller than
//     the shape; A and B of the same type, one of half, bfloat16, float, int8; C float, int32 or half (int8
//     inputs: half is dequantized), or the input type; cores (SetDim) >= 1; a fixed base (SetFixSplit) baseM/baseN a
//     multiple of 16 and baseK a multiple of C0 = 32 bytes / sizeof(A); the base blocks fit L0A/L0B
//     (64 KB each) and L0C (128 KB, or SetBufferSpace's l0CSize); the L1 blocks fit L1 (512 KB or
//     SetBufferSpace's l1Size).
//  2. Core split (MultiCoreMatmulTiling; MatmulApiTiling uses one core): for mDim * nDim <= SetDim,
//     mDim <= ceil(M / 16), nDim <= ceil(N / 16) (a core takes at least one 16-row / 16-column fractal
//     unless the dimension is smaller), singleCoreM = ceil(M / mDim), singleCoreN = ceil(N / nDim),
//     singleCoreK = K; a split into equal blocks of whole 16 x 16 fractals (singleCoreM divides M,
//     singleCoreN divides N, both multiples of 16) that uses
//     more than half as many cores as the best split wins over splits with a tail (kernels written for
//     CANN's tiling often assume equal core blocks); then the split that uses
//     the most cores ceil(M / singleCoreM) * ceil(N / singleCoreN) wins, then the smallest
//     singleCoreM * singleCoreN, then the least A+B traffic K * (singleCoreM + singleCoreN), then the
//     larger mDim (M is split first). SetSingleShape fixes singleCoreM/N/K instead. An A (B) in the TSCM
//     position is kept whole on each core (the TSCM page: a TSCM operand is fully loaded), so M (N) is
//     not split then.
//  3. Base block: baseM = min(align16(singleCoreM), 128), baseN = min(align16(singleCoreN), 256)
//     (halving the larger, by multiples of 16, until baseM * baseN * 4 bytes fit L0C);
//     baseK = min(alignC0(singleCoreK), the largest multiple of C0 with baseM * baseK * sizeof(A) and
//     baseN * baseK * sizeof(B) in half of L0A / L0B). SetFixSplit values replace any of the three.
//     dbL0A (dbL0B) = 2 when two A (B) base blocks fit L0A (L0B), else 1; dbL0C = 2 when two C blocks
//     fit L0C, else 1.
//  4. L1: stepM = stepN = 1; stepKa = stepKb = the most K steps (at most ceil(singleCoreK / baseK))
//     with 2 * step * (baseM * baseK * sizeof(A) + baseN * baseK * sizeof(B)) + bias bytes <= L1
//     (double-buffered), depthA1 = 2 * stepM * stepKa, depthB1 = 2 * stepN * stepKb; when even one
//     step does not fit twice, a single buffer (depth = step = 1); bias bytes = baseN * sizeof(bias).
//  5. Other fields: M/N/Ka/Kb = the original shape, isBias, iterateOrder = 1 for
//     SetTraverse(FIRSTN) else 0, shareL1Size = the L1 bytes used, shareL0CSize = baseM * baseN * 4 *
//     dbL0C, transLength = shareUbSize = shareMode = 0, batch and layout fields 0.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "kgen_sim/matmul/tcube_tiling.h"

namespace kgen {
namespace mm {

/// Element types the cube unit takes (host DataType and kernel types map onto these).
enum class Elem { None, F16, BF16, F32, I8, I32, I4 };
inline uint32_t elem_bytes(Elem e) {
    switch (e) {
        case Elem::F16: case Elem::BF16: return 2;
        case Elem::F32: case Elem::I32: return 4;
        case Elem::I8: return 1;
        case Elem::I4: return 1;  // half a byte: sized as int8 (the blocks it gives fit in any case)
        default: return 0;
    }
}
inline const char* elem_name(Elem e) {
    switch (e) {
        case Elem::F16: return "half"; case Elem::BF16: return "bfloat16"; case Elem::F32: return "float";
        case Elem::I8: return "int8"; case Elem::I32: return "int32"; case Elem::I4: return "int4"; default: return "unsupported";
    }
}
/// The documented A/B/C/bias type combinations of dav-2201 (no quantisation): empty when valid.
inline std::string check_types(Elem a, Elem b, Elem c, Elem bias, bool has_bias) {
    if (a == Elem::None || a == Elem::I32) return std::string("A of type ") + elem_name(a) + " (the cube takes half, bfloat16, float, int8 or int4)";
    if (a != b) return std::string("A is ") + elem_name(a) + " but B is " + elem_name(b) + " (both inputs must have one type)";
    if (a == Elem::I4) {  // int4 x int4 -> int32 (Matmul data type table, dav-2201); bias int32
        if (c != Elem::I32) return std::string("C of type ") + elem_name(c) + " for int4 inputs (int32)";
        if (has_bias && bias != Elem::I32) return std::string("bias of type ") + elem_name(bias) + " for int4 inputs (int32)";
        return "";
    }
    bool c_ok = a == Elem::I8 ? (c == Elem::I32 || c == Elem::F16) : (c == Elem::F32 || c == a);  // int8 -> half: dequant
    if (!c_ok) return std::string("C of type ") + elem_name(c) + " for " + elem_name(a) + " inputs (" +
                      (a == Elem::I8 ? "int32, or half with dequantization" : std::string("float or ") + elem_name(a)) + ")";
    if (has_bias) {
        bool b_ok = a == Elem::I8 ? bias == Elem::I32 : (bias == Elem::F32 || bias == a);
        if (!b_ok) return std::string("bias of type ") + elem_name(bias) + " for " + elem_name(a) + " inputs";
    }
    return "";
}

struct TilingProblem {
    int64_t m = -1, n = -1, k = -1;                       // SetShape
    int64_t org_m = -1, org_n = -1, org_ka = -1, org_kb = -1;  // SetOrgShape (-1: the shape)
    int64_t single_m = -1, single_n = -1, single_k = -1;  // SetSingleShape
    int64_t base_m = -1, base_n = -1, base_k = -1;        // SetFixSplit
    Elem a = Elem::F16, b = Elem::F16, c = Elem::F32, bias_t = Elem::F32;
    bool bias = false;
    int64_t cores = 1;
    bool multi_core = false;
    bool first_n = false;                                 // SetTraverse(FIRSTN)
    bool a_whole = false, b_whole = false;                // A / B in TSCM: M / N not split over cores
    int64_t l1 = 524288, l0a = 65536, l0b = 65536, l0c = 131072;
};

inline int64_t ceil_div(int64_t a, int64_t b) { return b ? (a + b - 1) / b : 0; }
inline int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

/// Fill `t` by the rule above; returns false with the reason in `why`.
inline bool compute_tiling(const TilingProblem& in, TCubeTiling& t, std::string& why) {
    t = TCubeTiling{};
    TilingProblem p = in;  // a shape axis left at -1 (SetShape(-1, -1, k)) is the original shape's
    if (p.m < 1) p.m = p.org_m;
    if (p.n < 1) p.n = p.org_n;
    if (p.k < 1) p.k = p.org_ka;
    if (p.m < 1 || p.n < 1 || p.k < 1) { why = "the shape M, N, K must be set (SetShape) and positive"; return false; }
    int64_t om = p.org_m > 0 ? p.org_m : p.m, on = p.org_n > 0 ? p.org_n : p.n;
    int64_t oka = p.org_ka > 0 ? p.org_ka : p.k, okb = p.org_kb > 0 ? p.org_kb : oka;
    if (om < p.m || on < p.n || oka < p.k || okb < p.k) { why = "the original shape (SetOrgShape) is smaller than the shape (SetShape)"; return false; }
    why = check_types(p.a, p.b, p.c, p.bias_t, p.bias);
    if (!why.empty()) return false;
    if (p.cores < 1) { why = "SetDim: the core count must be at least 1"; return false; }
    const int64_t sa = elem_bytes(p.a), sb = elem_bytes(p.b), c0 = p.a == Elem::I4 ? 64 : 32 / sa;
    // 2. core split
    int64_t sm = p.m, sn = p.n, sk = p.single_k > 0 ? p.single_k : p.k;
    if (p.single_m > 0 || p.single_n > 0) {
        sm = p.single_m > 0 ? p.single_m : p.m;
        sn = p.single_n > 0 ? p.single_n : p.n;
        const int64_t need = ceil_div(p.m, sm) * ceil_div(p.n, sn), have = p.multi_core ? p.cores : 1;
        if (need > have)  // CANN's GetTiling keeps the single-core shape (a kernel may cover M in several passes): a note
            why = "SetSingleShape(" + std::to_string(sm) + ", " + std::to_string(sn) + ", ...) splits the shape into " +
                  std::to_string(need) + " core blocks but SetDim gives " + std::to_string(have) +
                  " cores: the tiling keeps the single-core shape and usedCoreNum = " + std::to_string(have);
    } else if (p.multi_core) {
        const int64_t md_max = p.a_whole ? 1 : ceil_div(p.m, 16), nd_max = p.b_whole ? 1 : ceil_div(p.n, 16);
        int64_t most = 0;  // the most cores any split uses
        for (int64_t md = 1; md <= p.cores && md <= md_max; ++md)
            for (int64_t nd = 1; md * nd <= p.cores && nd <= nd_max; ++nd)
                most = std::max(most, ceil_div(p.m, ceil_div(p.m, md)) * ceil_div(p.n, ceil_div(p.n, nd)));
        bool best_even = false;
        int64_t best_used = -1, best_area = 0, best_traffic = 0, best_md = 0;
        for (int64_t md = 1; md <= p.cores && md <= md_max; ++md) {
            for (int64_t nd = 1; md * nd <= p.cores && nd <= nd_max; ++nd) {
                int64_t cm = ceil_div(p.m, md), cn = ceil_div(p.n, nd);
                int64_t used = ceil_div(p.m, cm) * ceil_div(p.n, cn), area = cm * cn, traffic = p.k * (cm + cn);
                bool even = p.m % cm == 0 && p.n % cn == 0 && cm % 16 == 0 && cn % 16 == 0 && 2 * used > most;
                bool better = (even && !best_even) || (even == best_even && (used > best_used || (used == best_used &&
                              (area < best_area || (area == best_area && (traffic < best_traffic ||
                              (traffic == best_traffic && md > best_md)))))));
                if (better) {
                    best_even = even; best_used = used; best_area = area; best_traffic = traffic; best_md = md; sm = cm; sn = cn;
                }
            }
        }
    }
    if (sk > p.k || sm > p.m || sn > p.n) { why = "the single-core shape is larger than the shape"; return false; }
    // 3. base block
    int64_t bm, bn, bk;
    if (p.base_m > 0 && p.base_m % 16) { why = "SetFixSplit: baseM must be a multiple of 16"; return false; }
    if (p.base_n > 0 && p.base_n % 16) { why = "SetFixSplit: baseN must be a multiple of 16"; return false; }
    if (p.base_k > 0 && p.base_k % c0) { why = "SetFixSplit: baseK must be a multiple of " + std::to_string(c0) + " (32 bytes of A)"; return false; }
    bm = p.base_m > 0 ? p.base_m : std::min<int64_t>(align_up(sm, 16), 128);
    bn = p.base_n > 0 ? p.base_n : std::min<int64_t>(align_up(sn, 16), 256);
    while (bm * bn * 4 > p.l0c) {
        if (p.base_m > 0 && p.base_n > 0) { why = "baseM * baseN * 4 bytes exceed L0C"; return false; }
        bool shrink_m = p.base_n > 0 || (p.base_m <= 0 && bm >= bn);
        int64_t& v = shrink_m ? bm : bn;
        if (v <= 16) { why = "no base block fits L0C"; return false; }
        v = std::max<int64_t>(16, v / 2 / 16 * 16);
    }
    if (p.base_k > 0) {
        bk = p.base_k;
        if (bm * bk * sa > p.l0a || bn * bk * sb > p.l0b) { why = "baseK too large: a base block of A or B exceeds L0A/L0B (64 KB)"; return false; }
    } else {
        int64_t kmax = std::min(p.l0a / 2 / (bm * sa), p.l0b / 2 / (bn * sb)) / c0 * c0;
        if (kmax < c0) { why = "no baseK fits L0A/L0B"; return false; }
        bk = std::min(align_up(sk, c0), kmax);
    }
    int32_t db_a = 2 * bm * bk * sa <= p.l0a ? 2 : 1, db_b = 2 * bn * bk * sb <= p.l0b ? 2 : 1;
    int32_t db_c = 2 * bm * bn * 4 <= p.l0c ? 2 : 1;
    // 4. L1
    int64_t k_iters = ceil_div(sk, bk), ablk = bm * bk * sa, bblk = bn * bk * sb;
    int64_t bias_bytes = p.bias ? bn * int64_t(elem_bytes(p.bias_t)) : 0;
    int64_t step = std::min<int64_t>(k_iters, (p.l1 - bias_bytes) / (2 * (ablk + bblk)));
    int64_t depth_a, depth_b;
    if (step >= 1) { depth_a = depth_b = 2 * step; }
    else if (ablk + bblk + bias_bytes <= p.l1) { step = 1; depth_a = depth_b = 1; }
    else { why = "one base block of A and B does not fit L1"; return false; }
    // 5. fields
    t.usedCoreNum = int32_t(std::min<int64_t>(ceil_div(p.m, sm) * ceil_div(p.n, sn), p.multi_core ? p.cores : 1));
    t.M = int32_t(om); t.N = int32_t(on); t.Ka = int32_t(oka); t.Kb = int32_t(okb);
    t.singleCoreM = int32_t(sm); t.singleCoreN = int32_t(sn); t.singleCoreK = int32_t(sk);
    t.baseM = int32_t(bm); t.baseN = int32_t(bn); t.baseK = int32_t(bk);
    t.depthA1 = int32_t(depth_a); t.depthB1 = int32_t(depth_b);
    t.stepM = 1; t.stepN = 1; t.stepKa = int32_t(step); t.stepKb = int32_t(step);
    t.isBias = p.bias ? 1 : 0;
    t.iterateOrder = p.first_n ? 1 : 0;
    t.shareL1Size = int32_t(depth_a * ablk + depth_b * bblk + bias_bytes);
    t.shareL0CSize = int32_t(bm * bn * 4 * db_c);
    t.dbL0A = db_a; t.dbL0B = db_b; t.dbL0C = db_c;
    return true;
}

}  // namespace mm
}  // namespace kgen
