// kgen host-side emulation -- temporary sizes of WelfordUpdate / WelfordFinalize:
// GetWelfordUpdateMaxMinTmpSize, GetWelfordFinalizeMaxMinTmpSize.
//
// Documented rules followed (dav-2201 WelfordUpdate / WelfordFinalize tiling pages; the formulas live in
// adv/welford.h so that the kernel checks the same minimum): WelfordUpdate, srcShape [rnLength, abLength]:
// min 3 * 256 bytes for a half input, 256 for float with isReuseSource, else 512; max ceil(rn * ab / 64)
// times that. WelfordFinalize, srcShape [abLength] (a multiple of 8, else `welford-tiling` on stderr):
// min 1024; max 1024 when abLength <= 64, else (128 + 2 * abLength) * 4.
//
// @api GetWelfordUpdateMaxMinTmpSize GetWelfordFinalizeMaxMinTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"

namespace AscendC {

inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSizeU;
    (void)isInplace;
    if (srcShape.GetDimNum() != 2) {
        ::kgen::host::host_warn("welford-tiling", "GetWelfordUpdateMaxMinTmpSize: srcShape must be [rnLength, abLength]");
        return;
    }
    const uint32_t rn = static_cast<uint32_t>(srcShape.GetDim(0)), ab = static_cast<uint32_t>(srcShape.GetDim(1));
    minValue = (typeSizeT == 2 ? 3 : (isReuseSource ? 1 : 2)) * 256;
    maxValue = (rn * ab + 63) / 64 * minValue;
}
inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                            uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize;
    (void)isReuseSource;
    const uint32_t ab = srcShape.GetDimNum() ? static_cast<uint32_t>(srcShape.GetDim(0)) : 0;
    if (ab == 0 || ab % 8) {
        ::kgen::host::host_warn("welford-tiling", "GetWelfordFinalizeMaxMinTmpSize: abLength must be a non-zero multiple of 8");
        return;
    }
    minValue = 64 * 4 * 4;
    maxValue = ab <= 64 ? minValue : (128 + 2 * ab) * 4;
}

}  // namespace AscendC
