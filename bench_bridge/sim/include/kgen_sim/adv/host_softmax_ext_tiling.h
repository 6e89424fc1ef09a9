// kgen host-side emulation -- the host tiling of LogSoftMax, SoftmaxFlashV2 and SoftmaxGrad:
// optiling::LogSoftMaxTiling, LogSoftMaxTilingFunc, GetLogSoftMaxMax/MinTmpSize,
// SoftMaxFlashV2TilingFunc, GetSoftMaxFlashV2Max/MinTmpSize, SoftMaxGradTilingFunc,
// GetSoftMaxGradMax/MinTmpSize, GetSoftMaxFlashV3MaxMinTmpSize, SoftMaxFlashV3TilingFunc.
//
// Documented rules followed (the LogSoftMax, SoftmaxFlashV2 and SoftmaxGrad tiling pages, dav-2201):
//  * srcShape is [..., K]: K = last dimension (32-byte aligned), M = product of the others.
//  * LogSoftMax: the same sizes and split as SoftMax (adv/host_softmax_tiling.h): minimum
//    (32 / typeSize + K + 64) * 4 bytes, maximum M times that; LogSoftMaxTilingFunc fills
//    LogSoftMaxTiling exactly as SoftMaxTilingFunc fills SoftMaxTiling.
//  * SoftmaxFlashV2 (dataTypeSize1: src/dst, dataTypeSize2: sum/max) and SoftmaxGrad: the sizes and
//    row splits of adv/softmax_ext_rules.h; the tiling structs are SoftMaxTiling with
//    outMaxK = reduceK = 32 / dataTypeSize2 (SoftmaxGrad: 32 / dataTypeSize).
//  * SoftmaxFlashV3 (dataTypeSize1 = 2 and dataTypeSize2 = 4 only; isUpdate and isBasicBlock do not
//    change anything on dav-2201): one row needs 5 * (32 / dataTypeSize2) + 2 * K + 64 floats; minimum
//    one row (x4 bytes), maximum M rows. SoftMaxFlashV3TilingFunc: baseM = workspace floats / row, at
//    most M, below M and above 8 rounded down to a multiple of 8; outMaxK = reduceK = 32 / dataTypeSize2.
// Emulator: a type size other than 2 or 4, or a K that is not 32-byte aligned, is reported on stderr
// (`softmax-tiling`) as CANN's host checks log it; the functions then return 0 / leave the tiling alone.
//
// @api LogSoftMaxTilingFunc GetLogSoftMaxMaxTmpSize GetLogSoftMaxMinTmpSize SoftMaxFlashV2TilingFunc
// @api GetSoftMaxFlashV2MaxTmpSize GetSoftMaxFlashV2MinTmpSize SoftMaxGradTilingFunc GetSoftMaxGradMaxTmpSize
// @api GetSoftMaxGradMinTmpSize GetSoftMaxFlashV3MaxMinTmpSize SoftMaxFlashV3TilingFunc
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_softmax_tiling.h"
#include "kgen_sim/adv/softmax_ext_rules.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
KGEN_SOFTMAX_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
// Not registered, like SoftMaxTiling: the kernel side has its own LogSoftMaxTiling (adv/log_softmax.h).
}  // namespace optiling

namespace AscendC {

// ---- LogSoftMax ----------------------------------------------------------------------------------
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    kgen_host::SmDims d = kgen_host::softmax_dims("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize, dataTypeSize);
    (void)isReuseSource;
    return d.ok ? d.m * ::kgen::adv::softmax_row_tmp_bytes(d.k, dataTypeSize) : 0;
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    kgen_host::SmDims d = kgen_host::softmax_dims("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize, dataTypeSize);
    (void)isReuseSource;
    return d.ok ? ::kgen::adv::softmax_row_tmp_bytes(d.k, dataTypeSize) : 0;
}
inline void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                 optiling::LogSoftMaxTiling& softmaxTiling) {
    kgen_host::softmax_fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
inline void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                 ::LogSoftMaxTiling& softmaxTiling) {
    kgen_host::softmax_fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

// ---- SoftmaxFlashV2 ------------------------------------------------------------------------------
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    kgen_host::SmDims d = kgen_host::softmax_dims("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
    if (!d.ok) return 0;
    return 4 * ::kgen::adv::flashv2_min_floats(d.m, d.k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isFlashOutputBrc;
    kgen_host::SmDims d = kgen_host::softmax_dims("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
    if (!d.ok) return 0;
    return 4 * ::kgen::adv::flashv2_max_floats(d.m, d.k, dataTypeSize1, dataTypeSize2, isBasicBlock);
}
namespace kgen_host {
template <class Tl>
inline void flashv2_fill(const ge::Shape& s, uint32_t ts1, uint32_t ts2, uint32_t work, Tl& t, bool basic, bool brc) {
    SmDims d = softmax_dims("SoftMaxFlashV2TilingFunc", s, ts1, ts2);
    if (!d.ok) return;
    uint32_t baseM = ::kgen::adv::flashv2_base_m(d.m, d.k, ts1, ts2, work / 4, basic, brc);
    if (baseM == 0)
        ::kgen::host::host_warn("softmax-tiling", "SoftMaxFlashV2TilingFunc: localWorkSpaceSize %u holds no row (minimum %u)", work, 4 * ::kgen::adv::flashv2_min_floats(d.m, d.k, ts1, ts2, basic, brc));
    ::kgen::adv::fill_split(t, d.m, d.k, 32 / ts2, baseM);
}
}  // namespace kgen_host
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    kgen_host::flashv2_fill(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashTiling, isBasicBlock,
                            isFlashOutputBrc);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, ::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    kgen_host::flashv2_fill(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashTiling, isBasicBlock,
                            isFlashOutputBrc);
}

// ---- SoftmaxGrad ---------------------------------------------------------------------------------
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    kgen_host::SmDims d = kgen_host::softmax_dims("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, dataTypeSize);
    return d.ok ? 4 * d.m * ::kgen::adv::grad_row(d.k, dataTypeSize, isFront) : 0;
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    kgen_host::SmDims d = kgen_host::softmax_dims("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, dataTypeSize);
    return d.ok ? 4 * ::kgen::adv::grad_row(d.k, dataTypeSize, isFront) : 0;
}
namespace kgen_host {
template <class Tl>
inline void grad_fill(const ge::Shape& s, uint32_t ts, uint32_t work, Tl& t, bool front) {
    SmDims d = softmax_dims("SoftMaxGradTilingFunc", s, ts, ts);
    if (!d.ok) return;
    uint32_t baseM = ::kgen::adv::grad_base_m(d.m, d.k, ts, work / 4, front);
    if (baseM == 0)
        ::kgen::host::host_warn("softmax-tiling", "SoftMaxGradTilingFunc: localWorkSpaceSize %u holds no row (minimum %u)", work, 4 * ::kgen::adv::grad_row(d.k, ts, front));
    ::kgen::adv::fill_split(t, d.m, d.k, 32 / ts, baseM);
}
}  // namespace kgen_host
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
    kgen_host::grad_fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling, isFront);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  ::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
    kgen_host::grad_fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling, isFront);
}

// ---- SoftmaxFlashV3 ------------------------------------------------------------------------------
namespace kgen_host {
/// SoftmaxFlashV3 takes half src (dataTypeSize1 = 2) and float statistics (dataTypeSize2 = 4) only.
inline SmDims flashv3_dims(const char* api, const ge::Shape& s, uint32_t ts1, uint32_t ts2) {
    if (ts1 != 2 || ts2 != 4) {
        ::kgen::host::host_warn("softmax-tiling", "%s: dataTypeSize1 must be 2 (half) and dataTypeSize2 4 (float), got %u and %u", api, ts1, ts2);
        return SmDims{};
    }
    return softmax_dims(api, s, ts1, ts2);
}
template <class Tl>
inline void flashv3_fill(const ge::Shape& s, uint32_t ts1, uint32_t ts2, uint32_t work, Tl& t) {
    SmDims d = flashv3_dims("SoftMaxFlashV3TilingFunc", s, ts1, ts2);
    if (!d.ok) return;
    const uint32_t row = ::kgen::adv::flashv3_row_floats(d.k, ts2);
    uint32_t baseM = std::min(work / 4 / row, d.m);
    if (baseM < d.m && baseM > 8) baseM = baseM / 8 * 8;
    if (baseM == 0)
        ::kgen::host::host_warn("softmax-tiling", "SoftMaxFlashV3TilingFunc: localWorkSpaceSize %u holds no row (minimum %u)", work, 4 * row);
    ::kgen::adv::fill_split(t, d.m, d.k, 32 / ts2, baseM);
}
}  // namespace kgen_host
inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    kgen_host::SmDims d = kgen_host::flashv3_dims("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
    if (!d.ok) return;
    minValue = 4 * ::kgen::adv::flashv3_row_floats(d.k, dataTypeSize2);
    maxValue = d.m * minValue;
}
inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashV3Tiling,
                                     const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    kgen_host::flashv3_fill(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashV3Tiling);
}
inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, ::SoftMaxTiling& softmaxFlashV3Tiling,
                                     const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    kgen_host::flashv3_fill(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, softmaxFlashV3Tiling);
}

}  // namespace AscendC
