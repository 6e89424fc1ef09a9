// kgen AscendC CPU emulator -- BatchNorm over the first axis of [B, S, H] (ND format).
//
// Documented rules followed (dav-2201 BatchNorm page):
//  * BatchNorm<T, isReuseSource = false, isBasicBlock = false>(output, outputMean, outputVariance, inputX,
//    gamm, beta[, sharedTmpBuffer], T epsilon, BatchNormTiling& tiling): for every (s, h),
//    mean = sum_b x / B, variance = sum_b (x - mean)^2 / B (biased), output[b] = gamm[b] * (x[b] - mean) /
//    sqrt(variance + epsilon) + beta[b]. mean and variance are [S, H]; gamm and beta are [B].
//    B = tiling.originalBLength and S * H = tiling.meanVarSize (GetBatchNormNDTilingInfo). T: half, float.
//  * inputX and output may be the same tensor; other operands must not overlap. S * H * sizeof(T) a
//    multiple of 32 (`layernorm-shape`); isBasicBlock = true needs B a multiple of 8 and S * H a multiple
//    of 64 (`batchnorm-basic-block` warning). Empty tiling: `layernorm-tiling`.
//  * Temporary bytes: min 3 * (B * 32, B * 64 for half, B * 256 for basic blocks) + 2 * align32(S * H * 4),
//    max 3 * align32(B * S * H * 4) + 2 * align32(S * H * 4), and at least what the tiling plans
//    ((mean/var blocks for half) + 3 * oneTmpSize floats).
//
// Precision: the emulator reduces in double and rounds once per output; the NPU computes in float.
//
// @api BatchNorm
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/norm_types.h"

namespace kgen {
namespace adv {

template <class T>
inline void batchnorm(bool basic, const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean,
                      const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<T>& gamma,
                      const AscendC::LocalTensor<T>& beta, const AscendC::LocalTensor<uint8_t>* tmp, T epsilon,
                      const ::BatchNormTiling& tl) {
    static_assert(hf_v<T>, "BatchNorm supports half and float only on dav-2201");
    const char* api = "BatchNorm";
    const uint32_t b = tl.originalBLength, sh = tl.meanVarSize;
    if (!b || !sh)
        fail("layernorm-tiling", "%s: the BatchNormTiling is empty (originalBLength %u, meanVarSize %u): fill it with "
             "GetBatchNormNDTilingInfo and check its result", api, b, sh);
    if ((uint64_t(sh) * sizeof(T)) % 32)
        fail("layernorm-shape", "%s: S * H = %u must be a multiple of 32 bytes", api, sh);
    if (basic && (b % 8 || sh % 64))
        warn("batchnorm-basic-block", "%s: isBasicBlock = true needs B a multiple of 8 and S * H a multiple of 64 (B = %u, "
             "S * H = %u); the NPU result would be wrong", api, b, sh);
    const uint64_t n = uint64_t(b) * sh;
    operand(api, out, n);
    operand(api, x, n);
    operand(api, mean, sh);
    operand(api, var, sh);
    operand(api, gamma, b);
    operand(api, beta, b);
    if (lo_of(out) != lo_of(x)) no_overlap(api, out, n, x, n, "output and inputX");
    no_overlap(api, mean, sh, out, n, "outputMean and output");
    no_overlap(api, var, sh, out, n, "outputVariance and output");
    uint32_t need = batchnorm_tmp(b, sh, sizeof(T), basic, false);
    const uint64_t mvTotal = sizeof(T) == 4 ? 0 : 2 * uint64_t(align_up(sh, 8));
    const uint64_t planned = (mvTotal + 3ull * tl.oneTmpSize) * 4;
    if (planned > need && planned < (1ull << 32)) need = static_cast<uint32_t>(planned);
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(out), hi_of(out, n)}, {lo_of(x), hi_of(x, n)}, {lo_of(mean), hi_of(mean, sh)},
                       {lo_of(var), hi_of(var, sh)}});
    const double eps = static_cast<float>(epsilon);
    std::vector<double> col(b);
    for (uint32_t j = 0; j < sh; ++j) {
        double s = 0, q = 0;
        for (uint32_t i = 0; i < b; ++i) s += (col[i] = static_cast<float>(x.raw()[uint64_t(i) * sh + j]));
        const double mu = s / b;
        for (uint32_t i = 0; i < b; ++i) q += (col[i] - mu) * (col[i] - mu);
        const double v = q / b, rs = 1.0 / std::sqrt(v + eps);
        for (uint32_t i = 0; i < b; ++i)
            out.raw()[uint64_t(i) * sh + j] = T(static_cast<float>(static_cast<float>(gamma.raw()[i]) * (col[i] - mu) * rs +
                                                                   static_cast<float>(beta.raw()[i])));
        mean.raw()[j] = T(static_cast<float>(mu));
        var.raw()[j] = T(static_cast<float>(v));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 9);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                      const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, BatchNormTiling& tiling) {
    kgen::adv::batchnorm<T>(isBasicBlock, output, outputMean, outputVariance, inputX, gamm, beta, &sharedTmpBuffer, epsilon,
                            tiling);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
                      BatchNormTiling& tiling) {
    kgen::adv::batchnorm<T>(isBasicBlock, output, outputMean, outputVariance, inputX, gamm, beta, nullptr, epsilon, tiling);
}

}  // namespace AscendC
