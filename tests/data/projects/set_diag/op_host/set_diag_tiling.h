// kgen test project: tiling of SetDiag (square matrix y, n x n).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SetDiagTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SetDiag, SetDiagTilingData)
}  // namespace optiling
