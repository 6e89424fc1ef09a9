// kgen test project: tiling as a standard C++ struct (no BEGIN_TILING_DATA_DEF), shared by host and
// kernel: the host fills it with context->GetTilingData<T>(), the kernel reads it with
// REGISTER_TILING_DEFAULT + GET_TILING_DATA_WITH_STRUCT. y = x * scale.
#pragma once
#include <cstdint>

struct PlainNegTiling {
    uint32_t totalLength;
    uint32_t perCore;
    float scale;
};
