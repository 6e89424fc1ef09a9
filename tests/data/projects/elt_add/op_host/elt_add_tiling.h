// kgen test project: element-wise z = x + y over any length (tails), float / half / bf16.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(EltAddTilingData)
TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // elements in x
TILING_DATA_FIELD_DEF(uint32_t, perCore);       // elements per core (last core: the rest)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EltAdd, EltAddTilingData)
}  // namespace optiling
