// kgen test project: tiling data of BatchMatmul -- how the batches are spread over the cores, then the
// Matmul API's TCubeTiling for one batch (its BatchNum: the batches one IterateBatch call computes).
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchMatmulTilingData)
TILING_DATA_FIELD_DEF(uint32_t, batch);         // batches of c
TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);  // consecutive batches per vector core (the last core may get fewer)
TILING_DATA_FIELD_DEF(uint32_t, usedCores);
TILING_DATA_FIELD_DEF(uint32_t, broadcastB);    // 1: b is [1, K, N], shared by every batch of a
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BatchMatmul, BatchMatmulTilingData)
}  // namespace optiling
