// kgen test project: broadcast y[m, n] = x[m, n] + bias[n]; nested tiling struct and an array field.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowSplit)
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, lastRows);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowSplitOp, RowSplit)

BEGIN_TILING_DATA_DEF(AddRowBiasTilingData)
TILING_DATA_FIELD_DEF_ARR(uint32_t, 2, shape);     // {rows, cols}
TILING_DATA_FIELD_DEF(uint16_t, flags);            // padding test: 2 bytes before the nested struct
TILING_DATA_FIELD_DEF_STRUCT(RowSplit, split);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AddRowBias, AddRowBiasTilingData)
}  // namespace optiling
