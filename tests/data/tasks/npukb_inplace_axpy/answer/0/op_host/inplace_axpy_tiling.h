// InplaceAxpy tiling data (kgen team test project: an op without outputs that writes its second input).
#ifndef INPLACE_AXPY_TILING_H
#define INPLACE_AXPY_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InplaceAxpyTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InplaceAxpy, InplaceAxpyTilingData)
}  // namespace optiling
#endif
