// kgen AscendC CPU emulator -- temporary-buffer sizes and row splits of SoftmaxFlashV2 and
// SoftmaxGrad on dav-2201 (and the kernel-side LogSoftMaxTiling struct), shared by the kernel side (checks, kernel-side tiling function) and
// the host side (Get...TmpSize, ...TilingFunc).
//
// Documented rules followed (the SoftmaxFlashV2 / SoftmaxGrad tiling pages and their public host
// implementation for dav-2201; all sizes are counts of float elements, times 4 for bytes):
//  * blk = 32 / the type size of sum/max (dataTypeSize2 for SoftmaxFlashV2, the only type for
//    SoftmaxGrad); "basic" = isBasicBlock with K a multiple of 64; r = 128 when K == 1024 else 64.
//  * SoftmaxFlashV2, per row:      basic: half src: blk + K + r, float src: blk + r;
//                                   otherwise: half src: 2 * blk + K + 64, float src: blk + 64.
//    Minimum = 8 rows when basic, else 1 row; with isFlashOutputBrc it is multiplied by
//    min(32 / srcTypeSize, M) (the 8 basic rows are replaced by that count).
//    Maximum = M rows, where a basic block with M a multiple of 8 first halves M until M * K < 16384.
//    isUpdate does not change the sizes on dav-2201.
//  * SoftmaxFlashV2TilingFunc: baseM = workspace floats / per-row size, at most M; basic block
//    with M a multiple of 8: the SoftMax basic-block adjustment (multiple of 8 dividing M, halved
//    while baseM * K >= 16384); then, below M and above t (t = 16 for half src with
//    isFlashOutputBrc, else 8), rounded down to a multiple of t.
//  * SoftmaxGrad, per row: half: 2 * blk + 3 * K + 64; float: isFront ? blk + K + 64 : 2 * blk + K + 64.
//    Minimum one row, maximum M rows. SoftMaxGradTilingFunc: baseM = workspace floats / per-row size,
//    at most M, below M and above 8 rounded down to a multiple of 8, then the basic-block adjustment.
//
// (No public API: shared helper.)
#pragma once
#include <cstdint>

#include "kgen_sim/adv/softmax_types.h"

// The kernel-side LogSoftMaxTiling (@api in adv/log_softmax.h): SoftMaxTiling's 16 fields, same order.
struct LogSoftMaxTiling {
    KGEN_SOFTMAX_TILING_FIELDS(KGEN_KERNEL_TILING_FIELD)
};

namespace AscendC {
namespace tiling {
using LogSoftMaxTiling = ::LogSoftMaxTiling;
}  // namespace tiling
}  // namespace AscendC

namespace kgen {
namespace adv {

constexpr uint32_t flashv2_row(uint32_t k, uint32_t ts1, uint32_t ts2, bool basic) {
    const uint32_t blk = 32 / ts2;
    const uint32_t r = k == 1024 ? 128 : 64;
    if (basic) return ts1 == 2 ? blk + k + r : blk + r;
    return ts1 == 2 ? 2 * blk + k + 64 : blk + 64;
}

constexpr uint32_t flashv2_min_floats(uint32_t m, uint32_t k, uint32_t ts1, uint32_t ts2, bool isBasicBlock, bool brc) {
    const bool basic = isBasicBlock && k % 64 == 0;
    uint32_t rows = basic ? 8 : 1;
    if (brc) rows = (32 / ts1) < m ? 32 / ts1 : m;
    return flashv2_row(k, ts1, ts2, basic) * rows;
}

constexpr uint32_t flashv2_max_floats(uint32_t m, uint32_t k, uint32_t ts1, uint32_t ts2, bool isBasicBlock) {
    const bool basic = isBasicBlock && k % 64 == 0 && m % 8 == 0;
    if (basic)
        while (m && uint64_t(m) * k >= 64u * 256u) m /= 2;
    return flashv2_row(k, ts1, ts2, basic) * m;
}

/// SoftMax's basic-block row adjustment (M a multiple of 8, K of 64).
constexpr uint32_t softmax_basic_adjust(uint32_t baseM, uint32_t m, uint32_t k) {
    if (baseM > 8 && m % 8 == 0 && k % 64 == 0) {
        baseM = baseM / 8 * 8;
        while (baseM && m % baseM) baseM -= 8;
        while (baseM && uint64_t(baseM) * k >= 64u * 256u) baseM /= 2;
    }
    return baseM;
}

constexpr uint32_t flashv2_base_m(uint32_t m, uint32_t k, uint32_t ts1, uint32_t ts2, uint32_t workFloats,
                                  bool isBasicBlock, bool brc) {
    const bool basic = isBasicBlock && k % 64 == 0 && m % 8 == 0;
    uint32_t baseM = workFloats / flashv2_row(k, ts1, ts2, basic);
    if (baseM > m) baseM = m;
    if (basic) baseM = softmax_basic_adjust(baseM, m, k);
    const uint32_t t = (brc && ts1 == 2) ? 16 : 8;
    if (baseM < m && baseM > t) baseM = baseM / t * t;
    return baseM;
}

constexpr uint32_t grad_row(uint32_t k, uint32_t ts, bool isFront) {
    const uint32_t blk = 32 / ts;
    if (ts == 2) return 2 * blk + 3 * k + 64;
    return isFront ? blk + k + 64 : 2 * blk + k + 64;
}

constexpr uint32_t grad_base_m(uint32_t m, uint32_t k, uint32_t ts, uint32_t workFloats, bool isFront) {
    uint32_t baseM = workFloats / grad_row(k, ts, isFront);
    if (baseM > m) baseM = m;
    if (baseM < m && baseM > 8) baseM = baseM / 8 * 8;
    return softmax_basic_adjust(baseM, m, k);
}

/// SoftmaxFlashV3's temporary floats per row (dav-2201): 5 blocks of the statistics type, 2 rows, a repeat.
constexpr uint32_t flashv3_row_floats(uint32_t k, uint32_t ts2) { return 5 * (32 / ts2) + 2 * k + 64; }

/// Fill SoftMaxTiling's 16 fields (any struct with those names) for M rows split in chunks of baseM.
template <class Tl>
constexpr void fill_split(Tl& t, uint32_t m, uint32_t k, uint32_t blk, uint32_t baseM) {
    t.srcM = m;
    t.srcK = k;
    t.srcSize = m * k;
    t.outMaxM = m;
    t.outMaxK = blk;
    t.outMaxSize = m * blk;
    t.splitM = baseM;
    t.splitK = k;
    t.splitSize = baseM * k;
    t.reduceM = baseM;
    t.reduceK = blk;
    t.reduceSize = baseM * blk;
    const uint32_t tail = baseM ? m % baseM : 0;
    t.rangeM = baseM ? m / baseM : 0;
    t.tailM = tail;
    t.tailSplitSize = tail * k;
    t.tailReduceSize = tail * blk;
}

}  // namespace adv
}  // namespace kgen
