// kgen test project: tiling of AddOptBias (y = x + bias, bias optional).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddOptBiasTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddOptBias, AddOptBiasTilingData)
}  // namespace optiling
