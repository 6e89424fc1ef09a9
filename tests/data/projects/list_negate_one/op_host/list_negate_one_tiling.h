// kgen test project: tiling of ListNegateOne (a list of float tensors v, updated in place).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t LIST_NEGATE_MAX_TENSORS = 8;
BEGIN_TILING_DATA_DEF(ListNegateOneTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);
TILING_DATA_FIELD_DEF_ARR(uint32_t, LIST_NEGATE_MAX_TENSORS, lengths);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ListNegateOne, ListNegateOneTilingData)
}  // namespace optiling
