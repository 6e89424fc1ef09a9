// kgen test project: a workspace user. y = x + 2x, where 2x makes a round trip through the user
// workspace (after the system workspace).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WsTripleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, perCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(WsTriple, WsTripleTilingData)
}  // namespace optiling
