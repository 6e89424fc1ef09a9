// kgen AscendC CPU emulator -- SoftmaxFlashV2 (the FlashAttention-2 softmax step, ND format) and
// its kernel-side tiling function.
//
// Documented rules followed (dav-2201 SoftmaxFlashV2 page):
//  * The input is seen as [M, K]. isUpdate = false, per row: max = max_k x, dst = exp(x - max),
//    expSum = sum_k dst (expMax is not written). isUpdate = true, with the running inMax/inExpSum:
//    max = max(inMax, max_k x), dst = exp(x - max), expMax = exp(inMax - max),
//    expSum = expMax * inExpSum + sum_k dst. dst is NOT normalised (divide by the final sum later).
//  * Forms: SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst,
//    expSum, max, src, expMax, inExpSum, inMax[, sharedTmpBuffer], tiling, shapeInfo = {}) with all
//    tensors T, or half dst/src/expMax with float expSum/max/inExpSum/inMax; and the form with an
//    extra outReduceMax (second argument, all T) that also writes max_k x of this call: it only runs
//    with config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC (otherwise the NPU writes nothing:
//    `softmax-mode` warning) and writes outReduceMax only when isUpdate = true.
//  * expSum/max/expMax/inExpSum/inMax hold one 32-byte block per row (all the row's value);
//    config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC: one value per row.
//  * src and dst may be the same tensor, and so may max and inMax, expSum and inExpSum (the
//    official example updates them in place). Other overlaps: `operand-overlap`.
//  * srcK * sizeof(T) must be a multiple of 32 (`softmax-shape`). Padding columns (oriSrcK < srcK)
//    are left out of the reductions and get unspecified values.
//  * isBasicBlock = true needs K a multiple of 64 below 2048, K >= 256 / sizeof(T) and M a multiple of
//    8; otherwise the NPU computes on a wrong split: `softmax-basic-block` warning.
//  * sharedTmpBuffer: at least GetSoftMaxFlashV2MinTmpSize (adv/softmax_ext_rules.h), else
//    `adv-tmp-too-small`; the forms without it take that from free UB (`adv-tmp-no-room`).
//  * SoftMaxFlashV2TilingFunc(shapeInfo, typeSize1, typeSize2, localWorkSpaceSize, isUpdate,
//    isBasicBlock, isDataFormatNZ, isFlashOutputBrc) is constexpr on the kernel side and computes
//    the same SoftMaxTiling as the host function of that name.
//  * isDataFormatNZ = true is not emulated: compile-time error.
//
// Precision: the emulator computes in double and rounds each output once; the NPU computes in
// float (half inputs cast to float) with its Exp instruction, so results differ by a few ulp.
//
// @api SoftmaxFlashV2 SoftMaxFlashV2TilingFunc
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/softmax.h"
#include "kgen_sim/adv/softmax_ext_rules.h"
#include "kgen_sim/adv/softmax_types.h"

namespace kgen {
namespace adv {

template <class T, class U>
struct FlashArgs {
    const AscendC::LocalTensor<T>* dst;
    const AscendC::LocalTensor<T>* reduceMax;  // outReduceMax form only
    const AscendC::LocalTensor<U>* sum;
    const AscendC::LocalTensor<U>* max;
    const AscendC::LocalTensor<T>* src;
    const AscendC::LocalTensor<T>* expMax;
    const AscendC::LocalTensor<U>* inSum;
    const AscendC::LocalTensor<U>* inMax;
    const AscendC::LocalTensor<uint8_t>* tmp;
};

template <class A, class B>
inline bool same_start(const AscendC::LocalTensor<A>& a, const AscendC::LocalTensor<B>& b) {
    return lo_of(a) == lo_of(b);
}

template <class T, class U>
inline void softmax_flashv2(bool update, bool basicBlock, const FlashArgs<T, U>& a, const ::SoftMaxTiling& tiling,
                            const AscendC::SoftMaxShapeInfo& info, AscendC::SoftmaxMode mode) {
    static_assert(hf_v<T> && hf_v<U>, "SoftmaxFlashV2 supports half and float only on dav-2201");
    const char* api = "SoftmaxFlashV2";
    SmShape s = softmax_shape(api, tiling, info, sizeof(T));
    const uint64_t n = uint64_t(s.m) * s.k;
    const bool brc = mode == AscendC::SoftmaxMode::SOFTMAX_NORMAL;
    const uint32_t bu = brc ? 32 / sizeof(U) : 1, bt = brc ? 32 / sizeof(T) : 1;
    const uint64_t nu = uint64_t(s.m) * bu, nt = uint64_t(s.m) * bt;
    if (basicBlock && (s.k % 64 || s.k >= 2048 || s.k < 256 / sizeof(T) || s.m % 8))
        warn("softmax-basic-block", "%s: isBasicBlock = true needs K a multiple of 64 in [%u, 2048) and M a multiple of 8, "
             "but the shape is [%u, %u]; the NPU result would be wrong", api, unsigned(256 / sizeof(T)), s.m, s.k);
    operand(api, *a.dst, n);
    operand(api, *a.src, n);
    operand(api, *a.sum, nu);
    operand(api, *a.max, nu);
    if (update) {
        operand(api, *a.expMax, nt);
        operand(api, *a.inSum, nu);
        operand(api, *a.inMax, nu);
    }
    if (!same_start(*a.dst, *a.src)) no_overlap(api, *a.dst, n, *a.src, n, "the source and destination tensors");
    no_overlap(api, *a.sum, nu, *a.dst, n, "expSum and dst");
    no_overlap(api, *a.max, nu, *a.dst, n, "max and dst");
    no_overlap(api, *a.sum, nu, *a.max, nu, "expSum and max");
    if (update) {
        no_overlap(api, *a.expMax, nt, *a.dst, n, "expMax and dst");
        no_overlap(api, *a.expMax, nt, *a.max, nu, "expMax and max");
        if (!same_start(*a.inMax, *a.max)) no_overlap(api, *a.inMax, nu, *a.max, nu, "inMax and max");
        if (!same_start(*a.inSum, *a.sum)) no_overlap(api, *a.inSum, nu, *a.sum, nu, "inExpSum and expSum");
    }
    if (a.reduceMax) operand(api, *a.reduceMax, nt);
    const uint32_t minF = flashv2_min_floats(s.m, s.k, sizeof(T), sizeof(U), basicBlock, false);
    Tmp t{a.tmp, minF * 4, flashv2_max_floats(s.m, s.k, sizeof(T), sizeof(U), basicBlock) * 4};
    check_tmp(api, t, {{lo_of(*a.dst), hi_of(*a.dst, n)}, {lo_of(*a.src), hi_of(*a.src, n)},
                       {lo_of(*a.sum), hi_of(*a.sum, nu)}, {lo_of(*a.max), hi_of(*a.max, nu)},
                       {update ? lo_of(*a.expMax) : 0, update ? hi_of(*a.expMax, nt) : 0}});
    std::vector<double> row(s.k);
    for (uint32_t m = 0; m < s.m; ++m) {
        const T* x = a.src->raw() + uint64_t(m) * s.k;
        for (uint32_t k = 0; k < s.k; ++k) row[k] = static_cast<float>(x[k]);
        double rmax = -INFINITY;
        for (uint32_t k = 0; k < s.ok; ++k) rmax = std::max(rmax, row[k]);
        double mx = rmax, em = 1.0, insum = 0.0;
        if (update) {  // read the running values first: max/inMax and expSum/inExpSum may be one tensor
            double inmax = static_cast<float>(a.inMax->raw()[uint64_t(m) * bu]);
            insum = static_cast<float>(a.inSum->raw()[uint64_t(m) * bu]);
            mx = std::max(inmax, rmax);
            em = std::exp(inmax - mx);
        }
        double sm = 0;
        T* d = a.dst->raw() + uint64_t(m) * s.k;
        for (uint32_t k = 0; k < s.k; ++k) {
            double e = std::exp(row[k] - mx);
            if (k < s.ok) sm += e;
            d[k] = T(static_cast<float>(e));
        }
        if (update) sm += em * insum;
        for (uint32_t j = 0; j < bu; ++j) {
            a.sum->raw()[uint64_t(m) * bu + j] = U(static_cast<float>(sm));
            a.max->raw()[uint64_t(m) * bu + j] = U(static_cast<float>(mx));
        }
        if (update)
            for (uint32_t j = 0; j < bt; ++j) {
                a.expMax->raw()[uint64_t(m) * bt + j] = T(static_cast<float>(em));
                if (a.reduceMax) a.reduceMax->raw()[uint64_t(m) * bt + j] = T(static_cast<float>(rmax));
            }
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), update ? 6 : 4);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                 const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                 const bool isUpdate = false, const bool isBasicBlock = false,
                                                 const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isDataFormatNZ;
    SoftMaxTiling t{};
    if (dataTypeSize1 == 0 || dataTypeSize2 == 0) return t;
    const uint32_t baseM = kgen::adv::flashv2_base_m(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2,
                                                     localWorkSpaceSize / 4, isBasicBlock, isFlashOutputBrc);
    kgen::adv::fill_split(t, shapeInfo.srcM, shapeInfo.srcK, 32 / dataTypeSize2, baseM);
    return t;
}

#define KGEN_FV2_TPL template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, \
                               bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define KGEN_FV2_NZ static_assert(!isDataFormatNZ, "kgen emulator: SoftmaxFlashV2 with isDataFormatNZ = true (NZ layout) is not emulated")

KGEN_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                        const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                        const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                        const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_FV2_NZ;
    kgen::adv::softmax_flashv2<T, T>(isUpdate, isBasicBlock,
                                     {&dstTensor, nullptr, &expSumTensor, &maxTensor, &srcTensor, &expMaxTensor,
                                      &inExpSumTensor, &inMaxTensor, nullptr},
                                     tiling, softmaxShapeInfo, config.mode);
}
KGEN_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                        const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                        const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                        const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_FV2_NZ;
    kgen::adv::softmax_flashv2<half, float>(isUpdate, isBasicBlock,
                                            {&dstTensor, nullptr, &expSumTensor, &maxTensor, &srcTensor, &expMaxTensor,
                                             &inExpSumTensor, &inMaxTensor, nullptr},
                                            tiling, softmaxShapeInfo, config.mode);
}
KGEN_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                        const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                        const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                        const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_FV2_NZ;
    kgen::adv::softmax_flashv2<T, T>(isUpdate, isBasicBlock,
                                     {&dstTensor, nullptr, &expSumTensor, &maxTensor, &srcTensor, &expMaxTensor,
                                      &inExpSumTensor, &inMaxTensor, &sharedTmpBuffer},
                                     tiling, softmaxShapeInfo, config.mode);
}
KGEN_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                        const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                        const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                        const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    KGEN_FV2_NZ;
    kgen::adv::softmax_flashv2<half, float>(isUpdate, isBasicBlock,
                                            {&dstTensor, nullptr, &expSumTensor, &maxTensor, &srcTensor, &expMaxTensor,
                                             &inExpSumTensor, &inMaxTensor, &sharedTmpBuffer},
                                            tiling, softmaxShapeInfo, config.mode);
}

namespace kgen_detail {
template <class T, bool isUpdate, bool isBasicBlock, const SoftmaxConfig& config>
inline void flashv2_reduce_max(const LocalTensor<T>& dst, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,
                               const LocalTensor<T>& outMax, const LocalTensor<T>& src, const LocalTensor<T>& outExpMax,
                               const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                               const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info) {
    if (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
        kgen::warn("softmax-mode", "SoftmaxFlashV2 with outReduceMax only runs with config.mode = "
                   "SOFTMAX_OUTPUT_WITHOUT_BRC; with SOFTMAX_NORMAL the NPU writes none of its outputs");
        return;
    }
    kgen::adv::softmax_flashv2<T, T>(isUpdate, isBasicBlock,
                                     {&dst, isUpdate ? &outReduceMax : nullptr, &outExpSum, &outMax, &src, &outExpMax,
                                      &inExpSum, &inMax, tmp},
                                     tiling, info, config.mode);
}
}  // namespace kgen_detail

KGEN_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                                        const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                        const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    kgen_detail::flashv2_reduce_max<T, isUpdate, isBasicBlock, config>(dstTensor, outReduceMax, outExpSum, outMax, srcTensor,
                                                                      outExpMax, inExpSum, inMax, nullptr, tiling,
                                                                      softmaxShapeInfo);
}
KGEN_FV2_TPL inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                                        const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                        const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                                        const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    kgen_detail::flashv2_reduce_max<T, isUpdate, isBasicBlock, config>(dstTensor, outReduceMax, outExpSum, outMax, srcTensor,
                                                                      outExpMax, inExpSum, inMax, &sharedTmpBuffer, tiling,
                                                                      softmaxShapeInfo);
}
#undef KGEN_FV2_TPL
#undef KGEN_FV2_NZ

}  // namespace AscendC
