// kgen test project: tiling data of LinearCustom -- the Matmul API's TCubeTiling nested in the op's struct.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockRows);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LinearCustom, LinearCustomTilingData)
}  // namespace optiling
