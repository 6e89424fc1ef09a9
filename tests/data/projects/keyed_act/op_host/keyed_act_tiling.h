// kgen test project: a TilingKey branch. mode 0 -> key 1 (y = exp(x)), mode 1 -> key 2 (y = |x|),
// any other mode -> key 7, which no TILING_KEY_IS branch handles (an error the emulator reports).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeyedActTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeyedAct, KeyedActTilingData)
}  // namespace optiling
