// kgen AscendC CPU emulator -- where the matrices of a batch matmul lie (IterateBatch / IterateNBatch of
// the Matmul API): the data layouts NORMAL, BSNGD, SBNGD and BNGS1S2 as pure offset arithmetic.
// Not an AscendC API: internal to kgen_sim/matmul/matmul_impl.h.
//
// Documented rules followed (IterateBatch / IterateNBatch pages, the Batch Matmul guide):
//  * The layout axes come from the tiling: SetALayout/SetBLayout(B, S, N, G, D), SetCLayout(B, S1, N, G,
//    S2) (SetBatchInfoForNormal fills them as B = batch, S = M (N for B), N = G = 1, D = K). One batch is
//    one S x D matrix (S: the M or N axis, D: the K axis; C: S1 x S2).
//  * NORMAL ([batch, M, K] and friends) and BNGS1S2: each batch's matrix is contiguous, batch i starts
//    i matrices further (or i * matrixStride elements).
//  * BSNGD ([B, S, N, G, D]): the matrix of batch (b, n, g) has rows N * G * D elements apart; inside one
//    S row of the layout the batches are D apart (one IterateBatch covers at most N * G batches: "one
//    SD row at a time"), (N * G) / batchA and (N * G) / batchB must be whole numbers.
//  * SBNGD ([S, B, N, G, D]): rows B * N * G * D apart, batches D apart.
//  * C in BSNGD / SBNGD: rows N * G * S2 (times B for SBNGD) apart, batches S2 apart, no sequential write;
//    C in NORMAL / BNGS1S2: batches singleCoreM x singleCoreN apart.
//  * Reduce over G: when C's G axis is 1 and A's or B's is not, the G batches of one output are summed
//    into it (atomic add): output batch = batch / max(ALayoutInfoG, BLayoutInfoG).
//  * A and B use one layout; ALayoutInfoG / batchA = BLayoutInfoG / batchB for the BSNGD, SBNGD and
//    BNGS1S2 layouts; the smaller batch count is broadcast (consecutive batches share a matrix).
//  * IterateNBatch(batchLoop, batchA, batchB, ...) runs batchLoop IterateBatch calls; call l starts at
//    A (B, C) offset: NORMAL/BNGS1S2 l * batch * S * D; SBNGD l * batch * D; BSNGD (b, ng) =
//    divmod(l * batch, N * G) -> b * S * N * G * D + ng * D (C with D = S2, S = S1, the C batch count).
#pragma once
#include <cstdint>
#include <string>

#include "kgen_sim/matmul/matmul_types.h"
#include "kgen_sim/matmul/tcube_tiling.h"

namespace kgen {
namespace mm {

/// One operand's layout axes from the tiling (B, S, N, G, D; for C: B, S1, N, G, S2).
struct Axes {
    int64_t b = 0, s = 0, n = 0, g = 0, d = 0;
    bool set() const { return b > 0 && s > 0 && n > 0 && g > 0 && d > 0; }
};

inline Axes a_axes(const TCubeTiling& t) { return {t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN, t.ALayoutInfoG, t.ALayoutInfoD}; }
inline Axes b_axes(const TCubeTiling& t) { return {t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN, t.BLayoutInfoG, t.BLayoutInfoD}; }
inline Axes c_axes(const TCubeTiling& t) { return {t.CLayoutInfoB, t.CLayoutInfoS1, t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2}; }

inline bool strided(LayoutMode l) { return l == LayoutMode::BSNGD || l == LayoutMode::SBNGD; }
inline const char* layout_name(LayoutMode l) {
    switch (l) {
        case LayoutMode::BSNGD: return "BSNGD";
        case LayoutMode::SBNGD: return "SBNGD";
        case LayoutMode::BNGS1S2: return "BNGS1S2";
        case LayoutMode::NORMAL: return "NORMAL";
        default: return "NONE";
    }
}

/// Start and row stride (elements) of one batch's stored matrix.
struct Place {
    uint64_t offset = 0, ld = 0;
};

/// Input batch `i` whose stored matrix is h x w (rows x columns as stored, i.e. after any transpose).
inline Place input_place(LayoutMode lay, const Axes& ax, uint64_t h, uint64_t w, uint64_t i, uint64_t matrix_stride) {
    if (lay == LayoutMode::BSNGD) return {i * (matrix_stride ? matrix_stride : w), uint64_t(ax.n * ax.g * ax.d)};
    if (lay == LayoutMode::SBNGD) return {i * (matrix_stride ? matrix_stride : w), uint64_t(ax.b * ax.n * ax.g * ax.d)};
    return {i * (matrix_stride ? matrix_stride : h * w), w};
}

/// Output batch `ci` of C (single shape sm x sn; `w` = sn, or sn padded to 32 bytes for ND_ALIGN; `ld` the
/// row stride NORMAL/BNGS1S2 use).
inline Place output_place(LayoutMode lay, const Axes& ax, uint64_t sm, uint64_t w, uint64_t ld, uint64_t ci, uint64_t s2) {
    if (lay == LayoutMode::BSNGD) return {ci * w, uint64_t(ax.n * ax.g) * s2};
    if (lay == LayoutMode::SBNGD) return {ci * w, uint64_t(ax.b * ax.n * ax.g) * s2};
    return {ci * sm * ld, ld};
}

/// G batches summed into one output (1: no reduction).
inline int64_t reduce_g(LayoutMode lay, const Axes& a, const Axes& b, const Axes& c) {
    if (lay == LayoutMode::NORMAL || lay == LayoutMode::NONE || !c.set()) return 1;
    if (c.g == 1 && (a.g != 1 || b.g != 1)) return a.g > b.g ? a.g : b.g;
    return 1;
}

/// Offset (elements) of IterateNBatch's call `l` for an operand with `batch` batches per call.
inline uint64_t nbatch_offset(LayoutMode lay, const Axes& ax, uint64_t batch, uint64_t l, uint64_t d) {
    if (lay == LayoutMode::SBNGD) return d * batch * l;
    if (lay == LayoutMode::BSNGD) {
        uint64_t ng = uint64_t(ax.n * ax.g), first = l * batch;
        return (first / ng) * d * uint64_t(ax.s) * ng + (first % ng) * d;
    }
    return d * uint64_t(ax.s) * batch * l;
}

/// The documented preconditions of one IterateBatch call; empty when they hold.
inline std::string check_batch(LayoutMode la, LayoutMode lb, const Axes& a, const Axes& b, const Axes& c, uint32_t batch_a,
                               uint32_t batch_b, bool seq_write, LayoutMode lc) {
    if (batch_a == 0 || batch_b == 0 || (batch_a > batch_b ? batch_a % batch_b : batch_b % batch_a))
        return "the batch counts must be positive and one a multiple of the other";
    if (la != lb) return std::string("A is ") + layout_name(la) + " but B is " + layout_name(lb) + " (A and B must use one layout)";
    if (la == LayoutMode::NORMAL || la == LayoutMode::NONE) return "";
    if (!a.set() || !b.set() || !c.set())
        return std::string("the ") + layout_name(la) + " layout needs SetALayout, SetBLayout and SetCLayout in the host tiling "
               "(a layout axis of the TCubeTiling is 0)";
    if (a.g * int64_t(batch_b) != b.g * int64_t(batch_a))
        return "ALayoutInfoG / batchA must equal BLayoutInfoG / batchB (" + std::to_string(a.g) + " / " + std::to_string(batch_a) +
               " vs " + std::to_string(b.g) + " / " + std::to_string(batch_b) + ")";
    if (la == LayoutMode::BSNGD && ((a.n * a.g) % batch_a || (b.n * b.g) % batch_b))
        return "BSNGD computes one SD row per call: N * G of A and B must be multiples of batchA and batchB (" +
               std::to_string(a.n * a.g) + " % " + std::to_string(batch_a) + ", " + std::to_string(b.n * b.g) + " % " +
               std::to_string(batch_b) + ")";
    if (strided(lc) && seq_write) return std::string("C in the ") + layout_name(lc) + " layout cannot be written sequentially";
    return "";
}

}  // namespace mm
}  // namespace kgen
