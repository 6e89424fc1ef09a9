// kgen test project: y = relu?(x * alpha + shift), attributes of every scalar kind plus str and list_int.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleShiftTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(int32_t, shift);
TILING_DATA_FIELD_DEF(uint8_t, relu);
TILING_DATA_FIELD_DEF(uint8_t, modeLen);     // strlen of the "mode" attribute (checked by the test)
TILING_DATA_FIELD_DEF(int64_t, dimsSum);     // sum of the "dims" list attribute (checked by the test)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleShift, ScaleShiftTilingData)
}  // namespace optiling
