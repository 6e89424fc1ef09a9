// kgen test project: the 8 largest values of every row and their positions (float), with TopK.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkRowsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);
TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, topk);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TopkRows, TopkRowsTilingData)
}  // namespace optiling
