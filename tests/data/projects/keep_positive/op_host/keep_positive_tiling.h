// kgen test project: tiling of KeepPositive (the positive elements of x, in order).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeepPositiveTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeepPositive, KeepPositiveTilingData)
}  // namespace optiling
