// kgen test project: two outputs, s = a + b and d = a - b (float and half).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumDiffTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SumDiff, SumDiffTilingData)
}  // namespace optiling
