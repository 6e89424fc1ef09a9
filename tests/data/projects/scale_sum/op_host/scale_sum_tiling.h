// kgen test project: tiling of ScaleSum (y = x * scale, s = sum(x), one core).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleSum, ScaleSumTilingData)
}  // namespace optiling
