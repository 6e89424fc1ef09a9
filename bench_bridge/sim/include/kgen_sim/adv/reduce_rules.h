// kgen AscendC CPU emulator -- temporary-buffer sizes of the high-level reductions (Sum, Mean and the
// pattern forms of ReduceSum / ReduceMean / ReduceMax / ReduceMin), shared by the kernel side (which
// rejects a smaller sharedTmpBuffer) and the host side (Get...MaxMinTmpSize).
//
// Documented rules followed (dav-2201 GetSumMaxMinTmpSize / GetMeanMaxMinTmpSize /
// GetReduce<Name>MaxMinTmpSize pages and their public host implementation), in bytes:
//  * Sum: ceil(n / (256 / size)) rounded up to a block of T, times size.
//  * Mean: align32(ceil(n / (256 / size))); half accumulated in float: align32(ceil(n / 64)) +
//    inner * 4 (inner = n rounded up to 32 bytes).
//  * Pattern forms, k = the largest power of two <= the reduced count, halved when the count is
//    itself a power of two (and, for AR sums, the kept axis is longer than 1):
//    sum/mean AR: 0 when last <= 64, else first * k * 4; sum/mean RA: k * align8(last) * 4;
//    max/min AR: 0 when last fits one block, first * block elements * size below one repeat,
//    else first * repeat elements * size; max/min RA: k * align32(last * size).
//
// (No public API: shared helper.)
#pragma once
#include <cstdint>

#include "kgen_sim/adv/norm_types.h"

namespace kgen {
namespace adv {

constexpr uint32_t sum_tmp_bytes(uint32_t n, uint32_t ts) {
    const uint32_t rep = (n + 256 / ts - 1) / (256 / ts);
    return align_up(rep, 32 / ts) * ts;
}
constexpr uint32_t mean_tmp_bytes(uint32_t n, uint32_t ts, uint32_t accTs) {
    const uint32_t inner = align_up(n * ts, 32) / ts;
    if (ts == 2 && accTs == 4) return align_up((n + 63) / 64, 32) + inner * 4;
    return align_up((n + 256 / ts - 1) / (256 / ts), 32);
}

/// The largest power of two <= n (1 for n <= 1).
constexpr uint32_t pow2_floor(uint32_t n) {
    uint32_t k = 1;
    while (n > 1) { k <<= 1; n >>= 1; }
    return k;
}
/// Temporary bytes of the pattern forms on dav-2201 (isReuseSource false). kind: 0 sum/mean, 1 max/min.
constexpr uint32_t reduce_pattern_tmp(int kind, bool ar, uint32_t first, uint32_t last, uint32_t ts) {
    if (kind == 1) {
        if (ar) {
            const uint32_t blk = 32 / ts, rep = 256 / ts;
            if (last <= blk) return 0;
            return last < rep ? first * blk * ts : first * rep * ts;
        }
        uint32_t k = pow2_floor(first);
        if (k == first && first > 1) k >>= 1;
        return k * align_up(last * ts, 32);
    }
    if (ar) {
        uint32_t k = pow2_floor(last);
        if (k == last && first > 1) k >>= 1;
        return last <= 64 ? 0 : first * k * 4;
    }
    uint32_t k = pow2_floor(first);
    if (k == first && first > 1) k >>= 1;
    return k * align_up(last, 8) * 4;
}

}  // namespace adv
}  // namespace kgen
