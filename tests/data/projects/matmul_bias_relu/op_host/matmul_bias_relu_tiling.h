// kgen test project: tiling data of MatmulBiasRelu -- the Matmul API's TCubeTiling nested in the op's
// struct, after the two sizes the vector epilogue needs.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulBiasReluTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockBytes);   // bytes of one baseM x baseN block of y in the Unified Buffer
TILING_DATA_FIELD_DEF(uint32_t, reserved);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MatmulBiasRelu, MatmulBiasReluTilingData)
}  // namespace optiling
