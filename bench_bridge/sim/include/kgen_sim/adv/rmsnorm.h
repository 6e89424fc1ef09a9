// kgen AscendC CPU emulator -- RmsNorm (ND format).
//
// Documented rules followed (dav-2201 RmsNorm page):
//  * RmsNorm<T, isBasicBlock = false>(dst, src, gamma[, sharedTmpBuffer], T epsilon, RmsNormTiling tiling)
//    over src [B, S, H] (B, S, H and the real H from the tiling, GetRmsNormTilingInfo): per row,
//    dst = x / sqrt(sum_{h < originalHLength} x^2 / originalHLength + epsilon) * gamma. T: half or float.
//  * H * sizeof(T) must be a multiple of 32 (`rmsnorm-shape`); the padding columns of dst are
//    overwritten (the emulator writes them with the same formula).
//  * dst and gamma must not overlap (documented); src and dst may be the same tensor.
//  * isBasicBlock = true needs H a multiple of 64 below 2048 and B * S a multiple of 8
//    (`rmsnorm-basic-block` warning: the NPU would compute on a wrong split).
//  * sharedTmpBuffer: at least GetRmsNormMaxMinTmpSize's minimum ((H + 8) floats for float,
//    (2H + 8) for half) and at least what the tiling plans per loop (mainBshLength * (1 or 2) +
//    mainBsLength rounded up to 8, floats), else `adv-tmp-too-small`; without it the API takes it
//    from free UB (`adv-tmp-no-room`). An empty tiling (hLength 0): `rmsnorm-tiling` error.
//
// Precision: the emulator reduces in double and rounds once; the NPU computes in float (half
// inputs cast to float) with its Rsqrt/Sqrt, so results differ by a few float ulp.
//
// @api RmsNorm
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/norm_types.h"

namespace kgen {
namespace adv {

template <class T>
inline void rmsnorm(bool basic, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>* tmp, T epsilon,
                    const ::RmsNormTiling& tl) {
    static_assert(hf_v<T>, "RmsNorm supports half and float only on dav-2201");
    const char* api = "RmsNorm";
    if (tl.hLength == 0 || tl.bLength == 0 || tl.sLength == 0)
        fail("rmsnorm-tiling", "%s: the RmsNormTiling is empty (hLength %u): fill it on the host with GetRmsNormTilingInfo "
             "and pass it in the tiling data", api, tl.hLength);
    const uint32_t h = tl.hLength, oh = tl.originalHLength ? tl.originalHLength : tl.hLength;
    const uint64_t rows = uint64_t(tl.bLength) * tl.sLength, n = rows * h;
    if ((uint64_t(h) * sizeof(T)) % 32 || oh > h)
        fail("rmsnorm-shape", "%s: H = %u must be a multiple of 32 bytes and at least the real length %u", api, h, oh);
    if (basic && (h % 64 || h >= 2048 || rows % 8))
        warn("rmsnorm-basic-block", "%s: isBasicBlock = true needs H a multiple of 64 below 2048 and B * S a multiple of 8, "
             "but the shape is [%llu, %u]; the NPU result would be wrong", api, (unsigned long long)rows, h);
    operand(api, dst, n);
    operand(api, src, n);
    operand(api, gamma, h);
    if (lo_of(dst) != lo_of(src)) no_overlap(api, dst, n, src, n, "dst and src");
    no_overlap(api, dst, n, gamma, h, "dst and gamma");
    uint32_t need = rmsnorm_tmp(tl.bLength, tl.sLength, h, sizeof(T), false);
    const uint64_t planned = (uint64_t(tl.mainBshLength) * (sizeof(T) == 2 ? 2 : 1) + align_up(tl.mainBsLength, 8)) * 4;
    if (planned > need && planned < (1ull << 32)) need = static_cast<uint32_t>(planned);
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}, {lo_of(gamma), hi_of(gamma, h)}});
    const double eps = static_cast<float>(epsilon);
    std::vector<double> row(h);
    for (uint64_t r = 0; r < rows; ++r) {
        const T* x = src.raw() + r * h;
        double q = 0;
        for (uint32_t k = 0; k < h; ++k) row[k] = static_cast<float>(x[k]);
        for (uint32_t k = 0; k < oh; ++k) q += row[k] * row[k];
        const double rs = 1.0 / std::sqrt(q / oh + eps);
        T* d = dst.raw() + r * h;
        for (uint32_t k = 0; k < h; ++k) d[k] = T(static_cast<float>(row[k] * rs * static_cast<float>(gamma.raw()[k])));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 6);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling) {
    kgen::adv::rmsnorm<T>(isBasicBlock, dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling) {
    kgen::adv::rmsnorm<T>(isBasicBlock, dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling);
}

}  // namespace AscendC
