// ForeachScale tiling data (kgen team test project): y[i] = x[i] * scalar for every tensor of a list.
#ifndef FOREACH_SCALE_TILING_H
#define FOREACH_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t FOREACH_SCALE_MAX_TENSORS = 16;
BEGIN_TILING_DATA_DEF(ForeachScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, tensorCount);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF_ARR(uint32_t, FOREACH_SCALE_MAX_TENSORS, lengths);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ForeachScale, ForeachScaleTilingData)
}  // namespace optiling
#endif
