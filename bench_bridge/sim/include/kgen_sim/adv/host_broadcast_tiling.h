// kgen host-side emulation -- GetBroadCastMaxMinTmpSize (the host size helper of Broadcast).
//
// Documented rules followed (dav-2201; the formula is in adv/broadcast_rules.h): srcShape and dstShape
// have the same rank, 1 or 2, every source dimension equals the destination's or is 1, and the type size
// is 1, 2 or 4; otherwise `broadcast-tiling` is reported on stderr and the outputs are left alone. The
// platform argument is accepted as given (the emulator models dav-2201).
//
// @api GetBroadCastMaxMinTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/broadcast_rules.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    (void)isReuseSource;
    const size_t r = dstShape.GetDimNum();
    bool ok = (r == 1 || r == 2) && srcShape.GetDimNum() == r && (typeSize == 1 || typeSize == 2 || typeSize == 4);
    uint64_t ns = 1, nd = 1;
    for (size_t i = 0; ok && i < r; ++i) {
        ok = srcShape.GetDim(i) == dstShape.GetDim(i) || srcShape.GetDim(i) == 1;
        ns *= static_cast<uint64_t>(srcShape.GetDim(i));
        nd *= static_cast<uint64_t>(dstShape.GetDim(i));
    }
    if (!ok) {
        ::kgen::host::host_warn("broadcast-tiling", "GetBroadCastMaxMinTmpSize: srcShape cannot be broadcast to dstShape (rank 1 or 2, "
                     "type size 1, 2 or 4)");
        return;
    }
    const uint32_t m = r == 2 ? static_cast<uint32_t>(dstShape.GetDim(0)) : 1;
    const uint32_t n = static_cast<uint32_t>(dstShape.GetDim(r - 1));
    const bool axis1 = r == 2 && srcShape.GetDim(1) == 1;
    ::kgen::adv::BrcSizes z = ::kgen::adv::broadcast_tmp(uint32_t(ns), uint32_t(nd), m, n, axis1, typeSize);
    minValue = z.min;
    maxValue = z.max;
}

}  // namespace AscendC
