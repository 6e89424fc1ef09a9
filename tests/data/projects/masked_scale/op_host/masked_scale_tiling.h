// kgen test project: tiling of MaskedScale (y = mask ? x * scale : 0).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF
REGISTER_TILING_DATA_CLASS(MaskedScale, MaskedScaleTilingData)
}  // namespace optiling
