// kgen AscendC CPU emulator -- Normalize: LayerNorm's second half with a known mean and variance.
//
// Documented rules followed (dav-2201 Normalize page):
//  * Normalize<U, T, isReuseSource = false, config = NLCFG_NORM>(output, float outputRstd, float
//    inputMean, float inputVariance, inputX, gamma (U), beta (U)[, sharedTmpBuffer], float epsilon,
//    NormalizePara para) over inputX [A, R] (rows of para.rLengthWithPadding elements, rLength real):
//    rstd = 1 / sqrt(variance + epsilon), output = (x - mean) * rstd * gamma + beta.
//    config.isNoGamma / isNoBeta leave gamma / beta out; isOnlyOutput does not write outputRstd;
//    config.aLength = -1 takes A from para. Only ReducePattern::AR is supported (compile-time error).
//  * T: half or float; U at least as precise as T. output and inputX must not overlap.
//  * Temporary buffer: at least GetNormalizeMaxMinTmpSize's minimum (max(align32(A * 4), 2 (float U)
//    or 4 (half U) * align32(Rpad * 4)) bytes), else `adv-tmp-too-small` / `adv-tmp-no-room`.
//    Rows padded to a non-32-byte multiple: `layernorm-shape`.
//
// Precision: the emulator evaluates in double and rounds once; the NPU uses float Rsqrt and float
// arithmetic, so its results differ by a few float ulp.
//
// @api Normalize
#pragma once
#include <cmath>
#include <cstdint>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/norm_types.h"

namespace kgen {
namespace adv {

template <class U, class T>
inline void normalize(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& rstd,
                      const AscendC::LocalTensor<float>& mean, const AscendC::LocalTensor<float>& var,
                      const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<U>& gamma,
                      const AscendC::LocalTensor<U>& beta, const AscendC::LocalTensor<uint8_t>* tmp, float epsilon,
                      const AscendC::NormalizePara& p, const AscendC::NormalizeConfig& cfg) {
    static_assert(hf_v<T> && hf_v<U>, "Normalize supports half and float only on dav-2201");
    static_assert(sizeof(U) >= sizeof(T), "Normalize: gamma/beta (U) must be at least as precise as inputX (T)");
    const char* api = "Normalize";
    const uint32_t a = cfg.aLength > 0 ? uint32_t(cfg.aLength) : p.aLength, r = p.rLength, rp = p.rLengthWithPadding;
    if (rp == 0 || (uint64_t(rp) * sizeof(T)) % 32 || r > rp || r == 0)
        fail("layernorm-shape", "%s: rLengthWithPadding = %u must be a non-zero multiple of 32 bytes and at least "
             "rLength = %u", api, rp, r);
    const uint64_t n = uint64_t(a) * rp;
    operand(api, out, n);
    operand(api, x, n);
    operand(api, mean, a);
    operand(api, var, a);
    if (!cfg.isOnlyOutput) {
        operand(api, rstd, a);
        no_overlap(api, rstd, a, out, n, "outputRstd and output");
    }
    if (!cfg.isNoGamma) operand(api, gamma, r);
    if (!cfg.isNoBeta) operand(api, beta, r);
    no_overlap(api, out, n, x, n, "output and inputX");
    Tmp t{tmp, normalize_tmp(a, r, sizeof(U), sizeof(T), false), normalize_tmp(a, r, sizeof(U), sizeof(T), true)};
    check_tmp(api, t, {{lo_of(out), hi_of(out, n)}, {lo_of(x), hi_of(x, n)}});
    for (uint32_t i = 0; i < a; ++i) {
        const double mu = mean.raw()[i];
        const double rs = 1.0 / std::sqrt(static_cast<double>(var.raw()[i]) + static_cast<double>(epsilon));
        const T* xp = x.raw() + uint64_t(i) * rp;
        T* o = out.raw() + uint64_t(i) * rp;
        for (uint32_t k = 0; k < r; ++k) {
            double y = (static_cast<double>(static_cast<float>(xp[k])) - mu) * rs;
            if (!cfg.isNoGamma) y *= static_cast<float>(gamma.raw()[k]);
            if (!cfg.isNoBeta) y += static_cast<float>(beta.raw()[k]);
            o[k] = T(static_cast<float>(y));
        }
        if (!cfg.isOnlyOutput) rstd.raw()[i] = static_cast<float>(rs);
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 5);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
                      const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                      const NormalizePara& para) {
    static_assert(config.reducePattern == ReducePattern::AR, "Normalize supports ReducePattern::AR only");
    kgen::adv::normalize<U, T>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon,
                               para, config);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
                      const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para) {
    static_assert(config.reducePattern == ReducePattern::AR, "Normalize supports ReducePattern::AR only");
    kgen::adv::normalize<U, T>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, nullptr, epsilon, para,
                               config);
}

}  // namespace AscendC
