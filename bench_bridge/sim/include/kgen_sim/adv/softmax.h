// kgen AscendC CPU emulator -- SoftMax and SimpleSoftMax (ND format).
//
// Documented rules followed (dav-2201 SoftMax / SimpleSoftMax pages):
//  * The input is seen as [M, K] (every axis but the last multiplied into M); per row:
//    max = max_k x, e = exp(x - max), sum = sum_k e, dst = e / sum.
//  * Forms: SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst, sum, max, src
//    [, sharedTmpBuffer], tiling, shapeInfo = {}) with T-typed sum/max, or half dst/src with float
//    sum/max; SoftMax<T, isReuseSource, isBasicBlock, config>(dst, src[, sharedTmpBuffer], tiling,
//    shapeInfo = {}) without them. SimpleSoftMax(dst, inSum, inMax, src[, sharedTmpBuffer], tiling,
//    shapeInfo = {}) takes max and sum as inputs: dst = exp(x - max) / sum, no reduction.
//  * sum and max have one 32-byte block per row (8 floats or 16 halves, all the row's value);
//    config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC: one value per row instead.
//  * srcK * sizeof(T) must be a multiple of 32 (`softmax-shape` error). When the shape info says
//    oriSrcK < srcK, the reductions cover the first oriSrcK columns; the padding columns of dst are
//    overwritten with unspecified values (the emulator writes exp(x - max) / sum there too).
//  * src and dst may be the same tensor. sharedTmpBuffer must not overlap any operand; it needs at
//    least (32 / sizeof(T) + srcK + 64) * 4 bytes (GetSoftMaxMinTmpSize), else `adv-tmp-too-small`;
//    the forms without it take that from free UB (`adv-tmp-no-room`).
//  * isDataFormatNZ = true (the NZ fractal layout) is not emulated: compile-time error.
//
// Precision: the emulator reduces and divides in double and rounds once to T; the NPU works in
// float (half inputs are cast to float first), so its float results differ by a few ulp.
//
//  * AdjustSoftMaxRes<T1, T2, isDataFormatNZ, stepSizeMode>(res, max, uint32_t from, T1 to, shapeInfo):
//    every row m whose max (the first element of its 32-byte block) has the bit pattern `from`
//    (its low 16 bits for a 16-bit max) gets all srcK results set to `to`. Returns whether any row
//    was adjusted (the emulator's reading of the documented bool result).
//
// @api SoftMax SimpleSoftMax AdjustSoftMaxRes
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/softmax_types.h"

namespace kgen {
namespace adv {

struct SmShape {
    uint32_t m, k, om, ok;
};

inline SmShape softmax_shape(const char* api, const ::SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                             uint32_t typeSize) {
    SmShape s{info.srcM, info.srcK, info.oriSrcM, info.oriSrcK};
    if (s.m == 0 && s.k == 0) s = SmShape{tiling.srcM, tiling.srcK, tiling.srcM, tiling.srcK};
    if (s.om == 0) s.om = s.m;
    if (s.ok == 0) s.ok = s.k;
    if (s.k == 0 || (uint64_t(s.k) * typeSize) % 32)
        fail("softmax-shape", "%s: the last axis (srcK = %u) must be a non-zero multiple of 32 bytes (%u elements)", api, s.k,
             32 / typeSize);
    if (s.ok > s.k || s.om > s.m)
        fail("softmax-shape", "%s: the original shape (%u, %u) is larger than the shape in UB (%u, %u)", api, s.om, s.ok, s.m,
             s.k);
    return s;
}

/// dst = softmax(src) row-wise. sum/max: outputs (reduce = true) or inputs (SimpleSoftMax).
template <class T, class U>
inline void softmax(const char* api, bool reduce, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* sum,
                    const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint8_t>* tmp, const ::SoftMaxTiling& tiling,
                    const AscendC::SoftMaxShapeInfo& info, AscendC::SoftmaxMode mode) {
    static_assert(hf_v<T> && hf_v<U>, "SoftMax supports half and float only on dav-2201");
    SmShape s = softmax_shape(api, tiling, info, sizeof(T));
    uint64_t n = uint64_t(s.m) * s.k;
    const bool brc = mode == AscendC::SoftmaxMode::SOFTMAX_NORMAL;
    const uint32_t blk = brc ? 32 / sizeof(U) : 1;
    operand(api, dst, n);
    operand(api, src, n);
    if (sum) { operand(api, *sum, uint64_t(s.m) * blk); no_overlap(api, *sum, uint64_t(s.m) * blk, dst, n, "sum and dst"); }
    if (max) { operand(api, *max, uint64_t(s.m) * blk); no_overlap(api, *max, uint64_t(s.m) * blk, dst, n, "max and dst"); }
    Tmp t{tmp, softmax_row_tmp_bytes(s.k, sizeof(T)), softmax_row_tmp_bytes(s.k, sizeof(T)) * s.m};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)},
                       {sum ? lo_of(*sum) : 0, sum ? hi_of(*sum, uint64_t(s.m) * blk) : 0},
                       {max ? lo_of(*max) : 0, max ? hi_of(*max, uint64_t(s.m) * blk) : 0}});
    std::vector<double> row(s.k);
    for (uint32_t m = 0; m < s.m; ++m) {
        const T* x = src.raw() + uint64_t(m) * s.k;
        for (uint32_t k = 0; k < s.k; ++k) row[k] = static_cast<float>(x[k]);
        double mx, sm;
        if (reduce) {
            mx = -INFINITY;
            for (uint32_t k = 0; k < s.ok; ++k) mx = std::max(mx, row[k]);
            sm = 0;
            for (uint32_t k = 0; k < s.ok; ++k) sm += std::exp(row[k] - mx);
        } else {
            mx = static_cast<float>(max->raw()[uint64_t(m) * blk]);
            sm = static_cast<float>(sum->raw()[uint64_t(m) * blk]);
        }
        T* d = dst.raw() + uint64_t(m) * s.k;
        for (uint32_t k = 0; k < s.k; ++k) d[k] = T(static_cast<float>(std::exp(row[k] - mx) / sm));
        if (reduce) {
            for (uint32_t j = 0; j < blk; ++j) {
                if (sum) sum->raw()[uint64_t(m) * blk + j] = U(static_cast<float>(sm));
                if (max) max->raw()[uint64_t(m) * blk + j] = U(static_cast<float>(mx));
            }
        }
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), reduce ? 7 : 3);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

#define KGEN_SM_TPL template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false, \
                              const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define KGEN_SM_NZ static_assert(!isDataFormatNZ, "kgen emulator: SoftMax with isDataFormatNZ = true (NZ layout) is not emulated")

KGEN_SM_TPL inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                                const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<T, T>("SoftMax", true, dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo,
                             config.mode);
}
KGEN_SM_TPL inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<half, float>("SoftMax", true, dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling,
                                    softmaxShapeInfo, config.mode);
}
KGEN_SM_TPL inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                                const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<T, T>("SoftMax", true, dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling,
                             softmaxShapeInfo, config.mode);
}
KGEN_SM_TPL inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<half, float>("SoftMax", true, dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling,
                                    softmaxShapeInfo, config.mode);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    kgen::adv::softmax<T, T>("SoftMax", true, dstTensor, (const LocalTensor<T>*)nullptr, (const LocalTensor<T>*)nullptr,
                             srcTensor, nullptr, tiling, softmaxShapeInfo, config.mode);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    kgen::adv::softmax<T, T>("SoftMax", true, dstTensor, (const LocalTensor<T>*)nullptr, (const LocalTensor<T>*)nullptr,
                             srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, config.mode);
}

KGEN_SM_TPL inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<T, T>("SimpleSoftMax", false, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling,
                             softmaxShapeInfo, config.mode);
}
KGEN_SM_TPL inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<half, float>("SimpleSoftMax", false, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling,
                                    softmaxShapeInfo, config.mode);
}
KGEN_SM_TPL inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<T, T>("SimpleSoftMax", false, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, &sharedTmpBuffer,
                             tiling, softmaxShapeInfo, config.mode);
}
KGEN_SM_TPL inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_SM_NZ;
    kgen::adv::softmax<half, float>("SimpleSoftMax", false, dstTensor, &inSumTensor, &inMaxTensor, srcTensor,
                                    &sharedTmpBuffer, tiling, softmaxShapeInfo, config.mode);
}
#undef KGEN_SM_TPL
#undef KGEN_SM_NZ

template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                             const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
    static_assert(!isDataFormatNZ, "kgen emulator: AdjustSoftMaxRes with isDataFormatNZ = true is not emulated");
    const char* api = "AdjustSoftMaxRes";
    const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK, blk = 32 / sizeof(T2);
    kgen::adv::operand(api, softMaxRes, uint64_t(m) * k);
    kgen::adv::operand(api, maxTensor, uint64_t(m) * blk);
    bool any = false;
    for (uint32_t r = 0; r < m; ++r) {
        T2 v = maxTensor.raw()[uint64_t(r) * blk];
        uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof(T2) < 4 ? sizeof(T2) : 4);
        uint32_t want = sizeof(T2) == 2 ? (from & 0xFFFFu) : from;
        if (bits != want) continue;
        any = true;
        for (uint32_t j = 0; j < k; ++j) softMaxRes.raw()[uint64_t(r) * k + j] = to;
    }
    kgen::adv::trace_call(api, uint64_t(m) * k * sizeof(T1), 2);
    return any;
}

}  // namespace AscendC
