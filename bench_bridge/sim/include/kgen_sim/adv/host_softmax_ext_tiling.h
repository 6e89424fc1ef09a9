// kgen host-side emulation -- the host tiling of LogSoftMax, SoftmaxFlashV2 and SoftmaxGrad:
// optiling::LogSoftMaxTiling, LogSoftMaxTilingFunc, GetLogSoftMaxMax/MinTmpSize,
// SoftMaxFlashV2TilingFunc, GetSoftMaxFlashV2Max/MinTmpSize, SoftMaxGradTilingFunc,
// GetSoftMaxGradMax/MinTmpSize.
//
// Documented rules followed (the LogSoftMax, SoftmaxFlashV2 and SoftmaxGrad tiling pages, dav-2201):
//  * srcShape is [..., K]: K = last dimension (32-byte aligned), M = product of the others.
//  * LogSoftMax: the same sizes and split as SoftMax (adv/host_softmax_tiling.h): minimum
//    (32 / typeSize + K + 64) * 4 bytes, maximum M times that; LogSoftMaxTilingFunc fills
//    LogSoftMaxTiling exactly as SoftMaxTilingFunc fills SoftMaxTiling.
//  * SoftmaxFlashV2 (dataTypeSize1: src/dst, dataTypeSize2: sum/max) and SoftmaxGrad: the sizes and
//    row splits of adv/softmax_ext_rules.h; the tiling structs are SoftMaxTiling with
//    outMaxK = reduceK = 32 / dataTypeSize2 (SoftmaxGrad: 32 / dataTypeSize).
// Emulator: a type size other than 2 or 4, or a K that is not 32-byte aligned, is reported on stderr
// (`softmax-tiling`) as CANN's host checks log it; the functions then return 0 / leave the tiling alone.
//
// @api LogSoftMaxTilingFunc GetLogSoftMaxMaxTmpSize GetLogSoftMaxMinTmpSize SoftMaxFlashV2TilingFunc
// @api GetSoftMaxFlashV2MaxTmpSize GetSoftMaxFlashV2MinTmpSize SoftMaxGradTilingFunc GetSoftMaxGradMaxTmpSize
// @api GetSoftMaxGradMinTmpSize
#pragma once
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_softmax_tiling.h"
#include "kgen_sim/adv/softmax_ext_rules.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcM);
TILING_DATA_FIELD_DEF(uint32_t, srcK);
TILING_DATA_FIELD_DEF(uint32_t, srcSize);
TILING_DATA_FIELD_DEF(uint32_t, outMaxM);
TILING_DATA_FIELD_DEF(uint32_t, outMaxK);
TILING_DATA_FIELD_DEF(uint32_t, outMaxSize);
TILING_DATA_FIELD_DEF(uint32_t, splitM);
TILING_DATA_FIELD_DEF(uint32_t, splitK);
TILING_DATA_FIELD_DEF(uint32_t, splitSize);
TILING_DATA_FIELD_DEF(uint32_t, reduceM);
TILING_DATA_FIELD_DEF(uint32_t, reduceK);
TILING_DATA_FIELD_DEF(uint32_t, reduceSize);
TILING_DATA_FIELD_DEF(uint32_t, rangeM);
TILING_DATA_FIELD_DEF(uint32_t, tailM);
TILING_DATA_FIELD_DEF(uint32_t, tailSplitSize);
TILING_DATA_FIELD_DEF(uint32_t, tailReduceSize);
END_TILING_DATA_DEF;
// Not registered, like SoftMaxTiling: the kernel side has its own LogSoftMaxTiling (adv/log_softmax.h).
}  // namespace optiling

namespace AscendC {
namespace kgen_host {

/// M and K of a shape after the documented checks; ok = false when the call must do nothing.
struct ExtDims {
    uint32_t m = 0, k = 0;
    bool ok = false;
};
inline ExtDims ext_dims(const char* api, const ge::Shape& s, uint32_t ts1, uint32_t ts2) {
    ExtDims d;
    if (s.GetDimNum() == 0) return d;
    d.k = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
    d.m = d.k ? static_cast<uint32_t>(elements(s) / d.k) : 0;
    for (uint32_t ts : {ts1, ts2})
        if (ts != 2 && ts != 4) {
            std::fprintf(stderr, "kgen: error: %s: data type size %u is not supported (half: 2, float: 4) [softmax-tiling]\n",
                         api, ts);
            return d;
        }
    if ((uint64_t(d.k) * ts1) % 32) {
        std::fprintf(stderr, "kgen: error: %s: the last axis (%u) must be 32-byte aligned [softmax-tiling]\n", api, d.k);
        return d;
    }
    d.ok = d.m > 0 && d.k > 0;
    return d;
}

}  // namespace kgen_host

// ---- LogSoftMax ----------------------------------------------------------------------------------
inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    kgen_host::ExtDims d = kgen_host::ext_dims("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize, dataTypeSize);
    (void)isReuseSource;
    return d.ok ? d.m * ::kgen::adv::softmax_row_tmp_bytes(d.k, dataTypeSize) : 0;
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    kgen_host::ExtDims d = kgen_host::ext_dims("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize, dataTypeSize);
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
    kgen_host::ExtDims d = kgen_host::ext_dims("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
    if (!d.ok) return 0;
    return 4 * ::kgen::adv::flashv2_min_floats(d.m, d.k, dataTypeSize1, dataTypeSize2, isBasicBlock, isFlashOutputBrc);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isFlashOutputBrc;
    kgen_host::ExtDims d = kgen_host::ext_dims("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, dataTypeSize2);
    if (!d.ok) return 0;
    return 4 * ::kgen::adv::flashv2_max_floats(d.m, d.k, dataTypeSize1, dataTypeSize2, isBasicBlock);
}
namespace kgen_host {
template <class Tl>
inline void flashv2_fill(const ge::Shape& s, uint32_t ts1, uint32_t ts2, uint32_t work, Tl& t, bool basic, bool brc) {
    ExtDims d = ext_dims("SoftMaxFlashV2TilingFunc", s, ts1, ts2);
    if (!d.ok) return;
    uint32_t baseM = ::kgen::adv::flashv2_base_m(d.m, d.k, ts1, ts2, work / 4, basic, brc);
    if (baseM == 0)
        std::fprintf(stderr, "kgen: error: SoftMaxFlashV2TilingFunc: localWorkSpaceSize %u holds no row (minimum %u) "
                     "[softmax-tiling]\n", work, 4 * ::kgen::adv::flashv2_min_floats(d.m, d.k, ts1, ts2, basic, brc));
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
    kgen_host::ExtDims d = kgen_host::ext_dims("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, dataTypeSize);
    return d.ok ? 4 * d.m * ::kgen::adv::grad_row(d.k, dataTypeSize, isFront) : 0;
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
    (void)isReuseSource;
    kgen_host::ExtDims d = kgen_host::ext_dims("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, dataTypeSize);
    return d.ok ? 4 * ::kgen::adv::grad_row(d.k, dataTypeSize, isFront) : 0;
}
namespace kgen_host {
template <class Tl>
inline void grad_fill(const ge::Shape& s, uint32_t ts, uint32_t work, Tl& t, bool front) {
    ExtDims d = ext_dims("SoftMaxGradTilingFunc", s, ts, ts);
    if (!d.ok) return;
    uint32_t baseM = ::kgen::adv::grad_base_m(d.m, d.k, ts, work / 4, front);
    if (baseM == 0)
        std::fprintf(stderr, "kgen: error: SoftMaxGradTilingFunc: localWorkSpaceSize %u holds no row (minimum %u) "
                     "[softmax-tiling]\n", work, 4 * ::kgen::adv::grad_row(d.k, ts, front));
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

}  // namespace AscendC
