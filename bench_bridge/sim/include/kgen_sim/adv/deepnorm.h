// kgen AscendC CPU emulator -- DeepNorm: LayerNorm of alpha * x + gx over [B, S, H] (ND format).
//
// Documented rules followed (dav-2201 DeepNorm page and its official example):
//  * DeepNorm<T, isReuseSrc = false, isBasicBlock = false>(dst, mean, rstd, src, gx, beta, gamma
//    [, sharedTmpBuffer], T alpha, T epsilon, DeepNormTiling& tiling): per (b, s) row over H,
//    y = alpha * x + gx, mean = sum y / H, variance = sum (y - mean)^2 / H, dst = (y - mean) /
//    sqrt(variance + epsilon) * gamma + beta. T: half or float; B, S, H and the real H come from the
//    tiling (GetDeepNormTilingInfo).
//  * The third output (named rstdLocal) receives the variance on dav-2201: the official example
//    compares it with a variance golden (the page calls it the reciprocal standard deviation).
//  * src and dst may be the same tensor only with isReuseSrc = true; other overlaps are errors.
//  * H * sizeof(T) a multiple of 32 and H <= 2040 (`layernorm-shape`); isBasicBlock = true needs
//    H a multiple of 64 and B * S a multiple of 8 (`deepnorm-basic-block` warning). Empty tiling:
//    `layernorm-tiling`.
//  * Temporary bytes: as LayerNorm's [B, S, H] form (3 H rows, 2 with isReuseSrc for float, plus 2
//    blocks of B * S floats) and at least what the tiling plans; `adv-tmp-too-small` / `adv-tmp-no-room`.
//
// Precision: the emulator computes in double and rounds each output once; the NPU works in float
// with Sqrt and Div, so results differ by a few float ulp.
//
// @api DeepNorm
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/norm_types.h"

namespace kgen {
namespace adv {

template <class T>
inline void deepnorm(bool reuse, bool basic, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& mean,
                     const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& gx,
                     const AscendC::LocalTensor<T>& beta, const AscendC::LocalTensor<T>& gamma,
                     const AscendC::LocalTensor<uint8_t>* tmp, T alpha, T epsilon, const ::DeepNormTiling& tl) {
    static_assert(hf_v<T>, "DeepNorm supports half and float only on dav-2201");
    const char* api = "DeepNorm";
    if (tl.hLength == 0 || tl.bLength == 0 || tl.sLength == 0)
        fail("layernorm-tiling", "%s: the DeepNormTiling is empty (hLength %u): fill it on the host with GetDeepNormTilingInfo "
             "and check its result", api, tl.hLength);
    const uint32_t h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : h;
    const uint64_t rows = uint64_t(tl.bLength) * tl.sLength, n = rows * h;
    if ((uint64_t(h) * sizeof(T)) % 32 || oh > h || h > 2040)
        fail("layernorm-shape", "%s: H = %u must be a multiple of 32 bytes, at most 2040 and at least the real length %u", api,
             h, oh);
    if (basic && (h % 64 || rows % 8))
        warn("deepnorm-basic-block", "%s: isBasicBlock = true needs H a multiple of 64 and B * S a multiple of 8, but the "
             "shape is [%llu, %u]; the NPU result would be wrong", api, (unsigned long long)rows, h);
    operand(api, dst, n);
    operand(api, src, n);
    operand(api, gx, n);
    operand(api, mean, rows);
    operand(api, var, rows);
    operand(api, gamma, h);
    operand(api, beta, h);
    if (!(reuse && lo_of(dst) == lo_of(src))) no_overlap(api, dst, n, src, n, "dstLocal and srcLocal (isReuseSrc = false)");
    no_overlap(api, dst, n, gx, n, "dstLocal and gxLocal");
    no_overlap(api, mean, rows, dst, n, "meanLocal and dstLocal");
    no_overlap(api, var, rows, dst, n, "rstdLocal and dstLocal");
    uint32_t need = layernorm_bsh_tmp(tl.bLength, tl.sLength, h, sizeof(T), reuse, false);
    const uint32_t mvTotal = sizeof(T) == 4 ? 0 : tl.meanTmpTensorSize + tl.varianceTmpTensorSize;
    const uint64_t planned = (uint64_t(mvTotal) + uint64_t(tl.numberOfTmpBuf) * tl.oneTmpSize) * 4;
    if (planned > need && planned < (1ull << 32)) need = static_cast<uint32_t>(planned);
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}, {lo_of(gx), hi_of(gx, n)}});
    const double a = static_cast<float>(alpha), eps = static_cast<float>(epsilon);
    std::vector<double> y(h);
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint32_t k = 0; k < h; ++k)
            y[k] = a * static_cast<float>(src.raw()[r * h + k]) + static_cast<float>(gx.raw()[r * h + k]);
        double s = 0, q = 0;
        for (uint32_t k = 0; k < oh; ++k) s += y[k];
        const double mu = s / oh;
        for (uint32_t k = 0; k < oh; ++k) q += (y[k] - mu) * (y[k] - mu);
        const double v = q / oh, rs = 1.0 / std::sqrt(v + eps);
        for (uint32_t k = 0; k < h; ++k)
            dst.raw()[r * h + k] = T(static_cast<float>((y[k] - mu) * rs * static_cast<float>(gamma.raw()[k]) +
                                                        static_cast<float>(beta.raw()[k])));
        mean.raw()[r] = T(static_cast<float>(mu));
        var.raw()[r] = T(static_cast<float>(v));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 10);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling& tiling) {
    kgen::adv::deepnorm<T>(isReuseSrc, isBasicBlock, dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                           &sharedTmpBuffer, alpha, epsilon, tiling);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling) {
    kgen::adv::deepnorm<T>(isReuseSrc, isBasicBlock, dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                           nullptr, alpha, epsilon, tiling);
}

}  // namespace AscendC
