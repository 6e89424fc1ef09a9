// kgen AscendC CPU emulator -- LayerNorm, both documented forms (ND format).
//
// Documented rules followed (dav-2201 LayerNorm page):
//  * [B, S, H] form: LayerNorm<T, isReuseSource = false>(output, outputMean, outputVariance, inputX,
//    gamma, beta[, sharedTmpBuffer], T epsilon, LayerNormTiling& tiling). Per (b, s) row over H:
//    mean = sum x / H, variance = sum (x - mean)^2 / H (biased), output = (x - mean) /
//    sqrt(variance + epsilon) * gamma + beta. mean and variance are T-typed, B * S values.
//    B, S, H and the real H (originalHLength) come from the tiling (GetLayerNormNDTilingInfo).
//    output and inputX may be the same tensor; no other operands may overlap.
//  * [A, R] form: LayerNorm<U, T, isReuseSource = false, config = LNCFG_NORM>(output, float
//    outputMean, float outputRstd, inputX, gamma (U), beta (U), float epsilon[, sharedTmpBuffer],
//    LayerNormPara para, LayerNormSeparateTiling tiling). Rows of para.rLengthWithPadding elements,
//    para.rLength of them real: mean and rstd = 1 / sqrt(variance + epsilon) per row (A floats each).
//    config.isNoGamma / isNoBeta leave gamma / beta out; isOnlyOutput writes neither mean nor rstd;
//    isOutputRstd = false (variance output) is not supported on dav-2201: compile-time error.
//    U must be at least as precise as T; src and dst must not overlap.
//  * H (or rLengthWithPadding) * sizeof(T) must be a multiple of 32 (`layernorm-shape`); the padding
//    columns must hold zeros on the NPU. The emulator leaves them out of the reductions, and writes
//    their output with the same formula ([B, S, H] form) or not at all ([A, R] form).
//  * Temporary buffer: at least GetLayerNormMaxMinTmpSize's minimum (adv/norm_types.h), and for the
//    [B, S, H] form at least what the tiling plans to use ((mean/var blocks for half) + numberOfTmpBuf
//    * oneTmpSize floats): `adv-tmp-too-small`; the forms without it take it from free UB
//    (`adv-tmp-no-room`). A tiling that was never filled (hLength 0): `layernorm-tiling` error.
//
// Precision: the emulator reduces in double and rounds each output once. The NPU computes in float
// (half inputs cast to float) and gets 1/sqrt through Ln/Exp or Rsqrt, so its results differ by a
// few float ulp (rstd/variance of nearly constant rows can differ more).
//
// @api LayerNorm
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/norm_types.h"

namespace kgen {
namespace adv {

template <class T>
inline void layernorm_bsh(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean,
                          const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& x,
                          const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta,
                          const AscendC::LocalTensor<uint8_t>* tmp, T epsilon, const ::LayerNormTiling& tl, bool reuse) {
    static_assert(hf_v<T>, "LayerNorm supports half and float only on dav-2201");
    const char* api = "LayerNorm";
    if (tl.hLength == 0 || tl.bLength == 0 || tl.sLength == 0)
        fail("layernorm-tiling", "%s: the LayerNormTiling is empty (hLength %u): fill it on the host with "
             "GetLayerNormNDTilingInfo and pass it in the tiling data", api, tl.hLength);
    const uint32_t h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : tl.hLength;
    const uint64_t rows = uint64_t(tl.bLength) * tl.sLength, n = rows * h;
    if ((uint64_t(h) * sizeof(T)) % 32 || oh > h)
        fail("layernorm-shape", "%s: H = %u must be a multiple of 32 bytes and at least the real length %u", api, h, oh);
    operand(api, out, n);
    operand(api, x, n);
    operand(api, mean, rows);
    operand(api, var, rows);
    operand(api, gamma, h);
    operand(api, beta, h);
    if (lo_of(out) != lo_of(x)) no_overlap(api, out, n, x, n, "output and inputX");
    no_overlap(api, mean, rows, out, n, "outputMean and output");
    no_overlap(api, var, rows, out, n, "outputVariance and output");
    no_overlap(api, mean, rows, var, rows, "outputMean and outputVariance");
    no_overlap(api, gamma, h, out, n, "gamma and output");
    no_overlap(api, beta, h, out, n, "beta and output");
    uint32_t need = layernorm_bsh_tmp(tl.bLength, tl.sLength, h, sizeof(T), reuse, false);
    const uint32_t mvTotal = sizeof(T) == 4 ? 0 : tl.meanTmpTensorSize + tl.varianceTmpTensorSize;
    const uint64_t planned = (uint64_t(mvTotal) + uint64_t(tl.numberOfTmpBuf) * tl.oneTmpSize) * 4;
    if (planned > need && planned < (1ull << 32)) need = static_cast<uint32_t>(planned);
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(out), hi_of(out, n)}, {lo_of(x), hi_of(x, n)}, {lo_of(mean), hi_of(mean, rows)},
                       {lo_of(var), hi_of(var, rows)}});
    std::vector<double> row(h);
    const double eps = static_cast<float>(epsilon);
    for (uint64_t r = 0; r < rows; ++r) {
        const T* xp = x.raw() + r * h;
        for (uint32_t k = 0; k < h; ++k) row[k] = static_cast<float>(xp[k]);
        double s = 0, q = 0;
        for (uint32_t k = 0; k < oh; ++k) s += row[k];
        const double mu = s / oh;
        for (uint32_t k = 0; k < oh; ++k) q += (row[k] - mu) * (row[k] - mu);
        const double v = q / oh, rs = 1.0 / std::sqrt(v + eps);
        T* o = out.raw() + r * h;
        for (uint32_t k = 0; k < h; ++k)
            o[k] = T(static_cast<float>((row[k] - mu) * rs * static_cast<float>(gamma.raw()[k]) +
                                        static_cast<float>(beta.raw()[k])));
        mean.raw()[r] = T(static_cast<float>(mu));
        var.raw()[r] = T(static_cast<float>(v));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 9);
}

template <class U, class T>
inline void layernorm_ar(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& mean,
                         const AscendC::LocalTensor<float>& rstd, const AscendC::LocalTensor<T>& x,
                         const AscendC::LocalTensor<U>& gamma, const AscendC::LocalTensor<U>& beta, float epsilon,
                         const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::LayerNormPara& p,
                         const AscendC::LayerNormConfig& cfg) {
    static_assert(hf_v<T> && hf_v<U>, "LayerNorm supports half and float only on dav-2201");
    static_assert(sizeof(U) >= sizeof(T), "LayerNorm: gamma/beta (U) must be at least as precise as inputX (T)");
    const char* api = "LayerNorm";
    const uint32_t a = p.aLength, r = p.rLength, rp = p.rLengthWithPadding;
    if (rp == 0 || (uint64_t(rp) * sizeof(T)) % 32 || r > rp || r == 0)
        fail("layernorm-shape", "%s: rLengthWithPadding = %u must be a non-zero multiple of 32 bytes and at least "
             "rLength = %u", api, rp, r);
    const uint64_t n = uint64_t(a) * rp;
    operand(api, out, n);
    operand(api, x, n);
    if (!cfg.isOnlyOutput) {
        operand(api, mean, a);
        operand(api, rstd, a);
        no_overlap(api, mean, a, out, n, "outputMean and output");
        no_overlap(api, rstd, a, out, n, "outputRstd and output");
    }
    if (!cfg.isNoGamma) operand(api, gamma, r);
    if (!cfg.isNoBeta) operand(api, beta, r);
    no_overlap(api, out, n, x, n, "output and inputX");
    Tmp t{tmp, layernorm_ar_tmp(a, r, sizeof(T), false), layernorm_ar_tmp(a, r, sizeof(T), true)};
    check_tmp(api, t, {{lo_of(out), hi_of(out, n)}, {lo_of(x), hi_of(x, n)}});
    std::vector<double> row(r);
    for (uint32_t i = 0; i < a; ++i) {
        const T* xp = x.raw() + uint64_t(i) * rp;
        double s = 0, q = 0;
        for (uint32_t k = 0; k < r; ++k) s += (row[k] = static_cast<float>(xp[k]));
        const double mu = s / r;
        for (uint32_t k = 0; k < r; ++k) q += (row[k] - mu) * (row[k] - mu);
        const double rs = 1.0 / std::sqrt(q / r + static_cast<double>(epsilon));
        T* o = out.raw() + uint64_t(i) * rp;
        for (uint32_t k = 0; k < r; ++k) {
            double y = (row[k] - mu) * rs;
            if (!cfg.isNoGamma) y *= static_cast<float>(gamma.raw()[k]);
            if (!cfg.isNoBeta) y += static_cast<float>(beta.raw()[k]);
            o[k] = T(static_cast<float>(y));
        }
        if (!cfg.isOnlyOutput) {
            mean.raw()[i] = static_cast<float>(mu);
            rstd.raw()[i] = static_cast<float>(rs);
        }
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 8);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling) {
    kgen::adv::layernorm_bsh<T>(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon, tiling,
                                isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const T epsilon, LayerNormTiling& tiling) {
    kgen::adv::layernorm_bsh<T>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, epsilon, tiling,
                                isReuseSource);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const float epsilon, const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
    static_assert(config.isOutputRstd, "LayerNorm: isOutputRstd = false (variance output) is not supported on dav-2201");
    (void)tiling;
    kgen::adv::layernorm_ar<U, T>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, nullptr, para, config);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling) {
    static_assert(config.isOutputRstd, "LayerNorm: isOutputRstd = false (variance output) is not supported on dav-2201");
    (void)tiling;
    kgen::adv::layernorm_ar<U, T>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, &sharedTmpBuffer, para,
                                  config);
}

}  // namespace AscendC
