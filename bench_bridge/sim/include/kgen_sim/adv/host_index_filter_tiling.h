// kgen host-side emulation -- temporary sizes of Arange and DropOut: GetArangeMaxMinTmpSize,
// GetArithProgressionMaxMinTmpSize, GetDropOutMaxMinTmpSize, GetDropOutMaxTmpSize, GetDropOutMinTmpSize.
//
// Documented rules followed (dav-2201): Arange needs no temporary buffer (0, 0). DropOut: min 2 * 256
// bytes, max max(2 * elements * 4, 512) for a srcShape of `elements` values; typeSize 2 or 4
// (`dropout-tiling` on stderr otherwise). The kernel side checks the same minimum (adv/index_filter.h).
//
// @api GetArangeMaxMinTmpSize GetArithProgressionMaxMinTmpSize GetDropOutMaxMinTmpSize GetDropOutMaxTmpSize
// @api GetDropOutMinTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"

namespace AscendC {

inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { GetArangeMaxMinTmpSize(maxValue, minValue); }

inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    (void)srcShape;
    (void)isReuseSource;
    if (typeSize != 2 && typeSize != 4)
        ::kgen::host::host_warn("dropout-tiling", "GetDropOutMinTmpSize: typeSize %u should be 2 or 4", typeSize);
    return 2 * 256;
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint64_t n = 1;
    for (size_t i = 0; i < srcShape.GetDimNum(); ++i) n *= static_cast<uint64_t>(srcShape.GetDim(i));
    const uint32_t mn = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
    const uint64_t mx = 2 * n * 4;
    return mx > mn ? static_cast<uint32_t>(mx) : mn;
}
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
    minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
