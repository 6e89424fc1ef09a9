// kgen test project: tiling of MulIntScalar (y = x * s[0], int32 x, int64 s).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MulIntScalarTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MulIntScalar, MulIntScalarTilingData)
}  // namespace optiling
