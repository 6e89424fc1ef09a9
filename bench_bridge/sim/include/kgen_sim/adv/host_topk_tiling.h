// kgen host-side emulation -- TopK's host tiling: the tiling-data class optiling::TopkTiling,
// TopKTilingFunc and GetTopKMaxMinTmpSize.
//
// Documented rules followed (TopK Tiling page, dav-2201; the formulas are in adv/topk_types.h):
//  * TopKTilingFunc(platform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, tiling)
//    fills optiling::TopkTiling (or the kernel struct AscendC::tiling::TopkTiling) and returns true.
//  * GetTopKMaxMinTmpSize(platform, inner, outter, isReuseSource, isInitIndex, mode, isLargest,
//    dataTypeSize, maxValue, minValue): the temporary bytes; on dav-2201 minimum = maximum.
//    isReuseSource is reserved.
//  * The arguments must satisfy: inner > 0 and a multiple of 32, inner == 32 in TOPK_NSMALL mode,
//    outter > 0, inner * outter * dataTypeSize within the UB, dataTypeSize 2 or 4, and (tiling)
//    1 <= k <= inner. CANN logs a violation; kgen reports it on stderr (`topk-tiling`) and returns
//    false without touching the outputs.
//  * The GetTopKMaxMinTmpSize overload with a TensorDataType and a TopKConfig serves the RADIX_SELECT
//    TopK of Ascend 950 only: on dav-2201 it reports `api-unsupported` and returns false.
//
// @api TopKTilingFunc GetTopKMaxMinTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_math_tiling.h"
#include "kgen_sim/adv/topk_types.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
TILING_DATA_FIELD_DEF(int32_t, tmpLocalSize);
TILING_DATA_FIELD_DEF(int32_t, allDataSize);
TILING_DATA_FIELD_DEF(int32_t, innerDataSize);
TILING_DATA_FIELD_DEF(uint32_t, sortRepeat);
TILING_DATA_FIELD_DEF(int32_t, mrgSortRepeat);
TILING_DATA_FIELD_DEF(int32_t, kAlignFourBytes);
TILING_DATA_FIELD_DEF(int32_t, kAlignTwoBytes);
TILING_DATA_FIELD_DEF(int32_t, maskOffset);
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2FourBytes);
TILING_DATA_FIELD_DEF(int32_t, maskVreducev2TwoBytes);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc1offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc2offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortSrc3offset);
TILING_DATA_FIELD_DEF(int32_t, mrgSortTwoQueueSrc1Offset);
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara1);
TILING_DATA_FIELD_DEF(int32_t, mrgFourQueueTailPara2);
TILING_DATA_FIELD_DEF(int32_t, srcIndexOffset);
TILING_DATA_FIELD_DEF(uint32_t, copyUbToUbBlockCount);
TILING_DATA_FIELD_DEF(int32_t, topkMrgSrc1MaskSizeOffset);
TILING_DATA_FIELD_DEF(int32_t, topkNSmallSrcIndexOffset);
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask0);
TILING_DATA_FIELD_DEF(uint32_t, vreduceValMask1);
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask0);
TILING_DATA_FIELD_DEF(uint32_t, vreduceIdxMask1);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask0);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask1);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask2);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask3);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask4);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask5);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask6);
TILING_DATA_FIELD_DEF(uint16_t, vreducehalfValMask7);
END_TILING_DATA_DEF;
// Not registered, like SoftMaxTiling: kernel_operator.h has the kernel-side struct (adv/topk_types.h).
}  // namespace optiling
static_assert(sizeof(optiling::TopkTiling) == sizeof(::TopkTiling), "host and kernel TopkTiling differ");

namespace AscendC {
namespace kgen_host {

/// The documented argument checks shared by both host helpers; false (and a stderr line) on a violation.
inline bool topk_args_ok(const char* fn, const platform_ascendc::PlatformAscendC& plat, int32_t inner, int32_t outter,
                         TopKMode mode, uint32_t ts) {
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const char* why = nullptr;
    if (inner <= 0 || inner % 32) why = "inner must be a positive multiple of 32";
    else if (mode == TopKMode::TOPK_NSMALL && inner != 32) why = "inner must be 32 in TOPK_NSMALL mode";
    else if (outter <= 0) why = "outter must be greater than 0";
    else if (ts != 2 && ts != 4) why = "dataTypeSize must be 2 (half) or 4 (float)";
    else if (uint64_t(inner) * uint64_t(outter) * ts > ub) why = "inner * outter * dataTypeSize exceeds the Unified Buffer";
    if (!why) return true;
    ::kgen::host::host_warn("topk-tiling", "%s: %s (inner %d, outter %d, dataTypeSize %u)", fn, why, inner, outter,
                 ts);
    return false;
}

template <class Tl>
inline bool topk_tiling(const platform_ascendc::PlatformAscendC& plat, int32_t inner, int32_t outter, int32_t k, uint32_t ts,
                        bool isInitIndex, TopKMode mode, bool isLargest, Tl& out) {
    if (!topk_args_ok("TopKTilingFunc", plat, inner, outter, mode, ts)) return false;
    if (k < 1 || k > inner) {
        ::kgen::host::host_warn("topk-tiling", "TopKTilingFunc: k is %d; it must be in [1, inner = %d]", k, inner);
        return false;
    }
    Tl t{};
    ::kgen::adv::topk_fill(t, inner, outter, k, ts, isInitIndex, mode, isLargest);
    out = t;
    return true;
}

}  // namespace kgen_host

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                           const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, optiling::TopkTiling& topKTiling) {
    return kgen_host::topk_tiling(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, topKTiling);
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                           const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, ::TopkTiling& topKTiling) {
    return kgen_host::topk_tiling(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, topKTiling);
}

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;  // reserved on dav-2201
    if (!kgen_host::topk_args_ok("GetTopKMaxMinTmpSize", ascendcPlatform, inner, outter, mode, dataTypeSize)) return false;
    minValue = maxValue = ::kgen::adv::topk_tmp_bytes(inner, outter, isInitIndex, mode, isLargest);
    return true;
}

/// The RADIX_SELECT form (Ascend 950): not available on dav-2201.
inline bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k, const bool isReuseSource,
                                 const bool isInitIndex, enum TopKMode mode, const bool isLargest, ge::DataType dataType,
                                 const TopKConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    (void)inner, (void)outter, (void)k, (void)isReuseSource, (void)isInitIndex, (void)mode, (void)isLargest, (void)dataType,
        (void)config, (void)maxValue, (void)minValue;
    ::kgen::host::host_warn("api-unsupported", "GetTopKMaxMinTmpSize with a TensorDataType and a TopKConfig is for the RADIX_SELECT "
                 "TopK of Ascend 950; on dav-2201 use the PlatformAscendC form");
    return false;
}

}  // namespace AscendC
