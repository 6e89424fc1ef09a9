// kgen host-side emulation -- GetCumSumMaxMinTmpSize (the host size helper of CumSum).
//
// Documented rules followed (GetCumSumMaxMinTmpSize page): GetCumSumMaxMinTmpSize(srcShape, typeSize,
// isLastAxis, isReuseSource, maxValue, minValue) -- note isLastAxis comes before isReuseSource; the
// input is 2-D [outter, inner] (other ranks: `cumsum-tiling` on stderr, outputs left alone); typeSize 2
// (half) or 4 (float). The byte counts follow the emulator's rule in adv/cumsum_rules.h (the page gives
// no formula).
//
// @api GetCumSumMaxMinTmpSize
#pragma once
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/cumsum_rules.h"

namespace AscendC {

inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (srcShape.GetDimNum() != 2 || (typeSize != 2 && typeSize != 4) || srcShape.GetDim(0) <= 0 || srcShape.GetDim(1) <= 0) {
        std::fprintf(stderr, "kgen: warning: GetCumSumMaxMinTmpSize: needs a 2-D shape [outter, inner] and typeSize 2 or 4 "
                     "[cumsum-tiling]\n");
        return;
    }
    minValue = maxValue = ::kgen::adv::cumsum_tmp_bytes(static_cast<uint64_t>(srcShape.GetDim(0)),
                                                       static_cast<uint64_t>(srcShape.GetDim(1)), typeSize, isLastAxis);
}

}  // namespace AscendC
