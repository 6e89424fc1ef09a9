// kgen AscendC CPU emulator -- temporary size of Broadcast on dav-2201, shared by the kernel check
// (adv/broadcast.h) and the host helper (adv/host_broadcast_tiling.h).
//
// Documented rule followed (dav-2201 GetBroadCastMaxMinTmpSize and its public host implementation),
// in bytes, for a 2-D destination [m, n] (1-D: m = 1):
//  * int8/uint8 data is widened to 16 bits first: cast = (align16(src count) + align16(dst count)) * 2,
//    and the rest of the rule then uses a type size of 2; other types: cast = 0.
//  * nothing to broadcast (same count, or one source value): 0 (8-bit types: cast + 32);
//  * axis 0 (source [1, n]): cast + 32;
//  * axis 1 (source [m, 1]), e = 32 / size elements per block: min e * e * size + cast, max
//    align8(m) * e * size + cast; when n is not a multiple of e both add a copy area of
//    (e or m) * align(n, e) * size.
//
// (No public API: shared helper.)
#pragma once
#include <cstdint>

namespace kgen {
namespace adv {

struct BrcSizes {
    uint32_t min, max;
};
constexpr BrcSizes broadcast_tmp(uint32_t srcCount, uint32_t dstCount, uint32_t m, uint32_t n, bool axis1, uint32_t ts) {
    uint32_t cast = 0;
    if (ts == 1) {
        cast = ((srcCount + 15) / 16 * 16 + (dstCount + 15) / 16 * 16) * 2;
        ts = 2;
    }
    if (srcCount == dstCount || srcCount == 1) return cast ? BrcSizes{cast + 32, cast + 32} : BrcSizes{0, 0};
    if (!axis1) return BrcSizes{32 + cast, 32 + cast};
    const uint32_t e = 32 / ts, m8 = (m + 7) / 8 * 8;
    uint32_t mn = e * e * ts + cast, mx = m8 * e * ts + cast;
    if (n % e) {
        const uint32_t na = (n + e - 1) / e * e;
        mn += e * na * ts;
        mx += m * na * ts;
    }
    return BrcSizes{mn, mx};
}

}  // namespace adv
}  // namespace kgen
