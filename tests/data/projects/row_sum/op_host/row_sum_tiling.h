// kgen test project: row-wise reduction y[m] = sum_j x[m, j] (float).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSumTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowSum, RowSumTilingData)
}  // namespace optiling
