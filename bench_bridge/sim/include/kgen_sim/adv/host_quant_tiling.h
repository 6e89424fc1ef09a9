// kgen host-side emulation -- temporary sizes of the quantisation APIs: GetAscendQuantMaxMinTmpSize,
// GetAscendQuantTmpBufferFactorSize, GetAscendDequantMaxMinTmpSize, GetAscendDequantTmpBufferFactorSize,
// GetAscendAntiQuantMaxMinTmpSize (+ Max/Min alone), GetAscendAntiQuantTmpBufferFactorSize.
//
// Documented rules followed: the sizes of adv/quant_rules.h (dav-2201). Host checks as documented:
// AscendQuant takes 2- or 4-byte sources whose total size is 32-byte aligned; AscendDequant 1-D or 2-D
// int32 shapes (typeSize 4). AscendAntiQuant: srcShape is [k, N] ([N, k] transposed), scaleShape the
// parameter shape (one element: per tensor); outputDataType DT_FLOAT16 needs no buffer.
// Emulator: a violated check is a located warning (`quant-tiling`): CANN's helpers log such arguments and
// go on, so the program is not stopped. AscendAntiQuant's helpers compute their sizes anyway (K = the first
// dimension, as CANN's do); the others leave their outputs alone, as CANN's return early.
//
// @api GetAscendQuantMaxMinTmpSize GetAscendQuantTmpBufferFactorSize GetAscendDequantMaxMinTmpSize
// @api GetAscendDequantTmpBufferFactorSize GetAscendAntiQuantMaxMinTmpSize GetAscendAntiQuantMaxTmpSize
// @api GetAscendAntiQuantMinTmpSize GetAscendAntiQuantTmpBufferFactorSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_reduce_tiling.h"
#include "kgen_sim/adv/quant_rules.h"

namespace AscendC {
namespace kgen_host {
inline bool quant_bad(const char* api, const char* what) {
    ::kgen::host::host_warn("quant-tiling", "%s: %s", api, what);
    return true;
}
inline uint32_t shape_size(const ge::Shape& s) {
    uint64_t n = 1;
    for (size_t i = 0; i < s.GetDimNum(); ++i) n *= static_cast<uint64_t>(s.GetDim(i));
    return static_cast<uint32_t>(n);
}
/// K of an AscendAntiQuant source ([K, N], or [N, K] transposed; only the untransposed sizes use it). The
/// documented srcShape is 2-D, but CANN's helper only logs other ranks and computes on (its K is the first
/// dimension): a located warning here, and the same sizes.
inline uint32_t antiquant_k(const char* api, const ge::Shape& s) {
    if (s.GetDimNum() != 2)
        ::kgen::host::host_warn("quant-tiling", "%s: srcShape has %zu dimension(s); the documented shape is 2-D [K, N] "
                                "(CANN's helper only logs this: the sizes are computed with K = the first dimension)",
                                api, s.GetDimNum());
    return s.GetDimNum() ? static_cast<uint32_t>(s.GetDim(0)) : 0;
}
}  // namespace kgen_host

inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    const uint32_t n = kgen_host::shape_size(srcShape);
    if (n == 0 || (typeSize != 2 && typeSize != 4) || (uint64_t(n) * typeSize) % 32) {
        kgen_host::quant_bad("GetAscendQuantMaxMinTmpSize", "the source must be half or float with a 32-byte aligned size");
        return;
    }
    maxValue = ::kgen::adv::quant_max_tmp(n);
    minValue = ::kgen::adv::quant_min_tmp();
}
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    maxLiveNodeCount = 2;
    extraBuf = 0;
}

inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    const size_t d = srcShape.GetDimNum();
    if (typeSize != 4 || d == 0 || d > 2 || kgen_host::shape_size(srcShape) == 0) {
        kgen_host::quant_bad("GetAscendDequantMaxMinTmpSize", "srcShape must be a non-empty 1-D or 2-D int32 shape");
        return;
    }
    const uint32_t m = d == 2 ? static_cast<uint32_t>(srcShape.GetDim(0)) : 1;
    const uint32_t n = static_cast<uint32_t>(srcShape.GetDim(d - 1));
    maxValue = ::kgen::adv::dequant_tmp(m, n);
    minValue = ::kgen::adv::dequant_tmp(1, n);
}
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    const size_t d = srcShape.GetDimNum();
    extraBuf = 8 + 64;
    if (d == 2) {
        extraBuf += static_cast<uint32_t>(srcShape.GetDim(1));
        maxLiveNodeCount = 1;
    } else if (d == 1) {
        maxLiveNodeCount = 2;
    } else {
        extraBuf = 0;
        maxLiveNodeCount = 0;
    }
}

inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             TensorDataType inputDataType, TensorDataType outputDataType) {
    (void)inputDataType;
    const uint32_t k = kgen_host::antiquant_k("GetAscendAntiQuantMaxTmpSize", srcShape);
    return ::kgen::adv::antiquant_max_tmp(outputDataType == ge::DT_FLOAT16, isTranspose, kgen_host::shape_size(scaleShape), k,
                                          kgen_host::shape_size(srcShape));
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             TensorDataType inputDataType, TensorDataType outputDataType) {
    (void)inputDataType;
    const uint32_t k = kgen_host::antiquant_k("GetAscendAntiQuantMinTmpSize", srcShape);
    return ::kgen::adv::antiquant_min_tmp(outputDataType == ge::DT_FLOAT16, isTranspose, kgen_host::shape_size(scaleShape), k);
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            TensorDataType inputDataType, TensorDataType outputDataType, uint32_t& maxValue,
                                            uint32_t& minValue) {
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}
inline void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                                  TensorDataType inputDataType, TensorDataType outputDataType,
                                                  uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    (void)inputDataType;
    const uint32_t scaleSize = kgen_host::shape_size(scaleShape);
    const bool perChannel = scaleSize != 1;
    extraBuf = 0;
    maxLiveNodeCount = 0;
    if (outputDataType == ge::DT_FLOAT16) return;
    if (isTranspose && perChannel) extraBuf = 80 * scaleSize * 4;
    else if (!perChannel) maxLiveNodeCount = 1;
    else extraBuf = scaleSize * 2 * 4 + 64 * static_cast<uint32_t>(srcShape.GetDim(0)) * 4;
}

}  // namespace AscendC
