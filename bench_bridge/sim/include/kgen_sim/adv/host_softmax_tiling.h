// kgen host-side emulation -- SoftMax's host tiling: the tiling-data class optiling::SoftMaxTiling,
// SoftMaxTilingFunc, GetSoftMaxMaxTmpSize / GetSoftMaxMinTmpSize, IsBasicBlockInSoftMax.
//
// Documented rules followed (SoftMax/SimpleSoftMax Tiling page, dav-2201):
//  * srcShape is [..., K]: K = last dimension (32-byte aligned), M = product of the others.
//  * Temporary buffer, in bytes: minimum (32 / typeSize + K + 64) * 4 (one row in float plus a
//    block and a reduction repeat), maximum M times that. isReuseSource is reserved.
//  * SoftMaxTilingFunc(shape, typeSize, localWorkSpaceSize, tiling) splits the rows into chunks of
//    baseM = min(localWorkSpaceSize / 4 / (32 / typeSize + K + 64), M) rows (rounded down to a
//    multiple of 8 when it is below M and above 8) and fills: srcM, srcK, srcSize = M*K,
//    outMaxM = M, outMaxK = 32/typeSize, outMaxSize = M*outMaxK, splitM = baseM, splitK = K,
//    splitSize = baseM*K, reduceM = baseM, reduceK = 32/typeSize, reduceSize = baseM*reduceK,
//    rangeM = M / baseM, tailM = M % baseM, tailSplitSize = tailM*K, tailReduceSize = tailM*reduceK.
//    The "basic block" adjustment (M a multiple of 8 and K of 64: baseM divides M and
//    baseM * K < 16384) is applied too.
//  * IsBasicBlockInSoftMax: tailM == 0, 256 / typeSize <= K < 2048 and K a multiple of 64.
// Emulator: a K that is not 32-byte aligned, a type size other than 2 or 4, or a workspace
// smaller than the minimum is reported on stderr (`softmax-tiling`), as CANN's host checks log it.
//
// @api SoftMaxTilingFunc GetSoftMaxMaxTmpSize GetSoftMaxMinTmpSize IsBasicBlockInSoftMax
#pragma once
#include "kgen_sim/host_diag.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_math_tiling.h"
#include "kgen_sim/adv/softmax_types.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
KGEN_SOFTMAX_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
// Not registered on purpose: the kgen project build must not generate a kernel-side SoftMaxTiling
// (kernel_operator.h defines it, kgen_sim/adv/softmax_types.h).
}  // namespace optiling

namespace AscendC {
namespace kgen_host {

/// M and K of a [..., K] shape after the documented checks (type sizes 2 or 4, K 32-byte aligned for
/// the source type ts1); ok = false when a check failed (the error is on stderr).
struct SmDims {
    uint32_t m = 0, k = 0;
    bool ok = false;
};
inline SmDims softmax_dims(const char* api, const ge::Shape& s, uint32_t ts1, uint32_t ts2) {
    SmDims d;
    if (s.GetDimNum() == 0) return d;
    d.k = static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
    d.m = d.k ? static_cast<uint32_t>(elements(s) / d.k) : 0;
    for (uint32_t ts : {ts1, ts2})
        if (ts != 2 && ts != 4) {
            ::kgen::host::host_warn("softmax-tiling", "%s: data type size %u is not supported (half: 2, float: 4)",
                         api, ts);
            return d;
        }
    if ((uint64_t(d.k) * ts1) % 32) {
        ::kgen::host::host_warn("softmax-tiling", "%s: the last axis (%u) must be 32-byte aligned", api, d.k);
        return d;
    }
    d.ok = d.m > 0 && d.k > 0;
    return d;
}
inline SmDims softmax_dims(const char* api, const ge::Shape& s, uint32_t typeSize) {
    return softmax_dims(api, s, typeSize, typeSize);
}

/// Fill any struct with SoftMaxTiling's field names (host class or kernel struct).
template <class Tl>
inline void softmax_fill(const ge::Shape& shape, uint32_t typeSize, uint32_t workBytes, Tl& t) {
    SmDims d = softmax_dims("SoftMaxTilingFunc", shape, typeSize);
    uint32_t epb = typeSize ? 32 / typeSize : 0;
    uint32_t per_row = epb + d.k + 64;
    if (workBytes < per_row * 4)
        ::kgen::host::host_warn("softmax-tiling", "SoftMaxTilingFunc: localWorkSpaceSize %u is below the minimum %u",
                     workBytes, per_row * 4);
    uint32_t baseM = std::min<uint32_t>(workBytes / 4 / per_row, d.m);
    if (baseM < d.m && baseM > 8) baseM = baseM / 8 * 8;
    if (baseM > 8 && d.m % 8 == 0 && d.k % 64 == 0) {  // basic-block adjustment
        baseM = baseM / 8 * 8;
        while (baseM && d.m % baseM) baseM -= 8;
        while (baseM * d.k >= 64u * 256u) baseM /= 2;
    }
    t.srcM = d.m;
    t.srcK = d.k;
    t.srcSize = d.m * d.k;
    t.outMaxM = d.m;
    t.outMaxK = epb;
    t.outMaxSize = d.m * epb;
    t.splitM = baseM;
    t.splitK = d.k;
    t.splitSize = baseM * d.k;
    t.reduceM = baseM;
    t.reduceK = epb;
    t.reduceSize = baseM * epb;
    uint32_t tail = baseM ? d.m % baseM : 0;
    t.rangeM = baseM ? d.m / baseM : 0;
    t.tailM = tail;
    t.tailSplitSize = tail * d.k;
    t.tailReduceSize = tail * epb;
}

}  // namespace kgen_host

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    kgen_host::SmDims d = kgen_host::softmax_dims("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize);
    return dataTypeSize ? d.m * ::kgen::adv::softmax_row_tmp_bytes(d.k, dataTypeSize) : 0;
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    kgen_host::SmDims d = kgen_host::softmax_dims("GetSoftMaxMinTmpSize", srcShape, dataTypeSize);
    return dataTypeSize ? ::kgen::adv::softmax_row_tmp_bytes(d.k, dataTypeSize) : 0;
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
    kgen_host::softmax_fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              ::SoftMaxTiling& softmaxTiling) {
    kgen_host::softmax_fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
template <class Tl>
inline bool kgen_is_basic_block(const Tl& t, uint32_t dataTypeSize) {
    if (dataTypeSize == 0) return false;
    return t.tailM == 0 && t.srcK >= 256 / dataTypeSize && t.srcK < 2048 && t.srcK % 64 == 0;
}
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    return kgen_is_basic_block(tiling, dataTypeSize);
}
inline bool IsBasicBlockInSoftMax(::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    return kgen_is_basic_block(tiling, dataTypeSize);
}

}  // namespace AscendC
