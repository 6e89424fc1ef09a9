// kgen test project: tiling of CastOut (y = x converted to the output's type).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CastOutTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CastOut, CastOutTilingData)
}  // namespace optiling
