// HalfWrite tiling data (kgen team test project: a kernel that writes half its output).
#ifndef HALF_WRITE_TILING_H
#define HALF_WRITE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HalfWriteTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(HalfWrite, HalfWriteTilingData)
}  // namespace optiling
#endif
