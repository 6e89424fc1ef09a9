// kgen AscendC CPU emulator -- SoftmaxGrad and SoftmaxGradFront (ND format).
//
// Documented rules followed (dav-2201 SoftmaxGrad / SoftmaxGradFront pages):
//  * The inputs grad (dy) and src (the softmax output y) are seen as [M, K]. Per row:
//    d = sum_k grad * src. SoftmaxGradFront and SoftmaxGrad with isFront = true write d into dst
//    as one 32-byte block per row (8 floats / 16 halves, all equal); SoftmaxGrad with
//    isFront = false writes dst = (grad - d) * src over the whole [M, K] tile.
//  * Forms: SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dst, grad, src[, sharedTmpBuffer], tiling,
//    bool isFront = false, shapeInfo = {}); SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dst, grad,
//    src[, sharedTmpBuffer], tiling, shapeInfo = {}). T: half or float.
//  * srcK * sizeof(T) must be a multiple of 32 (`softmax-shape`); padding columns (oriSrcK < srcK)
//    are left out of the reduction and get unspecified values.
//  * SoftmaxGrad: src and dst may be the same tensor; grad and dst must not overlap (exactly in place:
//    warning). SoftmaxGradFront: dst must not overlap either input; exactly in place on src (the official
//    softmaxgrad example does it) is an `operand-in-place` warning with the NPU's result: row by row, each
//    row read whole before its 32-byte result is written over rows already read.
//  * sharedTmpBuffer: at least GetSoftMaxGradMinTmpSize (adv/softmax_ext_rules.h: one row of
//    2 * blk + 3 * K + 64 floats for half, blk + K + 64 (front) or 2 * blk + K + 64 floats for float),
//    else `adv-tmp-too-small`; the forms without it take it from free UB (`adv-tmp-no-room`).
//  * isDataFormatNZ = true is not emulated: compile-time error.
//
// Precision: the emulator multiplies and reduces in double and rounds once to T; the NPU works in
// float (half inputs cast to float), so its results differ by a few float ulp.
//
// @api SoftmaxGrad SoftmaxGradFront
#pragma once
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/softmax.h"
#include "kgen_sim/adv/softmax_ext_rules.h"
#include "kgen_sim/adv/softmax_types.h"

namespace kgen {
namespace adv {

template <class T>
inline void softmax_grad(const char* api, bool front, bool srcReuseOk, const AscendC::LocalTensor<T>& dst,
                         const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<uint8_t>* tmp, const ::SoftMaxTiling& tiling,
                         const AscendC::SoftMaxShapeInfo& info) {
    static_assert(hf_v<T>, "SoftmaxGrad supports half and float only on dav-2201");
    SmShape s = softmax_shape(api, tiling, info, sizeof(T));
    const uint64_t n = uint64_t(s.m) * s.k;
    const uint32_t blk = 32 / sizeof(T);
    const uint64_t nd = front ? uint64_t(s.m) * blk : n;
    operand(api, dst, nd);
    operand(api, grad, n);
    operand(api, src, n);
    no_overlap(api, dst, nd, grad, n, "grad and dst");
    if (front && lo_of(dst) == lo_of(src)) {
        // documented as not allowed, but the official softmaxgrad example does it and checks the result on
        // the NPU: each row is read whole before its 32-byte result is written, and that result lands inside
        // rows already read (row m's block ends at (m+1)*blk <= (m+1)*K), so the NPU computes the documented
        // values; so does the loop below
        warn("operand-in-place", "%s: src and dst are the same tensor, which the documentation does not allow; the result "
             "is what the NPU computes (each row's 32-byte result overwrites only rows already read)", api);
    } else if (!(srcReuseOk && !front && lo_of(dst) == lo_of(src))) {
        no_overlap(api, dst, nd, src, n, "src and dst");
    }
    const uint32_t row = grad_row(s.k, sizeof(T), front);
    Tmp t{tmp, row * 4, row * 4 * s.m};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, nd)}, {lo_of(grad), hi_of(grad, n)}, {lo_of(src), hi_of(src, n)}});
    std::vector<double> g(s.k), y(s.k);
    for (uint32_t m = 0; m < s.m; ++m) {
        const T* gp = grad.raw() + uint64_t(m) * s.k;
        const T* yp = src.raw() + uint64_t(m) * s.k;
        double d = 0;
        for (uint32_t k = 0; k < s.k; ++k) {
            g[k] = static_cast<float>(gp[k]);
            y[k] = static_cast<float>(yp[k]);
            if (k < s.ok) d += g[k] * y[k];
        }
        if (front) {
            for (uint32_t j = 0; j < blk; ++j) dst.raw()[uint64_t(m) * blk + j] = T(static_cast<float>(d));
        } else {
            T* o = dst.raw() + uint64_t(m) * s.k;
            for (uint32_t k = 0; k < s.k; ++k) o[k] = T(static_cast<float>((g[k] - d) * y[k]));
        }
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), front ? 3 : 6);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                        const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "kgen emulator: SoftmaxGrad with isDataFormatNZ = true (NZ layout) is not emulated");
    kgen::adv::softmax_grad<T>("SoftmaxGrad", isFront, true, dstTensor, gradTensor, srcTensor, nullptr, tiling,
                               softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "kgen emulator: SoftmaxGrad with isDataFormatNZ = true (NZ layout) is not emulated");
    kgen::adv::softmax_grad<T>("SoftmaxGrad", isFront, true, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling,
                               softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "kgen emulator: SoftmaxGradFront with isDataFormatNZ = true (NZ layout) is not emulated");
    kgen::adv::softmax_grad<T>("SoftmaxGradFront", true, false, dstTensor, gradTensor, srcTensor, nullptr, tiling,
                               softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "kgen emulator: SoftmaxGradFront with isDataFormatNZ = true (NZ layout) is not emulated");
    kgen::adv::softmax_grad<T>("SoftmaxGradFront", true, false, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling,
                               softmaxShapeInfo);
}

}  // namespace AscendC
