// kgen AscendC CPU emulator -- WelfordUpdate and WelfordFinalize (online mean/variance over a split
// reduce axis).
//
// Documented rules followed (dav-2201 WelfordUpdate / WelfordFinalize pages):
//  * WelfordUpdate<T, U = float, isReuseSource, config = WFUPDATE_DEFAULT_CFG>(outMean, outVar, inMean,
//    inVar, inputX[, sharedTmpBuffer], WelfordUpdateParam {rnLength = 1, abLength, abComputeLength,
//    nRec = 1 / i}): for j < abComputeLength, with d = x - inMean:
//    outMean = inMean + d * nRec and outVar = inVar + d * (x - outMean) (outVar is the running M, the
//    sum of squared deviations). Every step is a float vector instruction (Sub, Muls, Add, Sub, Mul,
//    Add) and the emulator rounds after each in that order. Past abComputeLength: config.isInplace
//    copies the inputs to the outputs, otherwise they are not written. T: half or float; U: float.
//    rnLength must be 1, abLength a multiple of 32 / sizeof(T), abComputeLength > 0 (`welford-param`).
//    Temporary bytes (GetWelfordUpdateMaxMinTmpSize): min 3 repeats (256 bytes each) for half, 1 for
//    float with isReuseSource, else 2; max ceil(rn * ab / 64) times the minimum.
//  * WelfordFinalize<isReuseSource, config>(outMean, outVar, inMean, inVar[, counts][, sharedTmpBuffer],
//    WelfordFinalizePara {rnLength, abLength, headCount, headCountLength, tailCount, tailCountLength,
//    abRec, rRec, rRecWithCorrection}): combines abLength partial (mean_j, M_j) with counts c_j
//    (the counts tensor, or headCount for the first headCountLength positions and tailCount after):
//    mean = abRec * sum mean_j when every count is equal (no tail), else rRec * sum c_j * mean_j;
//    variance = rRec * sum_j (M_j + c_j * (mean_j - mean)^2). One float each. abLength a multiple of 8,
//    headCountLength + tailCountLength == abLength, tailCountLength 0 when tailCount is 0
//    (`welford-param`). config.isCorrection is Ascend 950 only (compile-time error here).
//    Temporary bytes (GetWelfordFinalizeMaxMinTmpSize, shape [abLength]): min 64 * 4 * 4; max the same
//    when abLength <= 64, else (128 + 2 * abLength) * 4.
//
// Precision: WelfordUpdate follows the documented float instruction order exactly; WelfordFinalize
// sums in double and rounds once (the NPU reduces in float: a few ulp).
//
// @api WelfordUpdate WelfordFinalize WelfordUpdateParam WelfordUpdateConfig WFUPDATE_DEFAULT_CFG
// @api WelfordFinalizePara WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kgen_sim/adv/adv_common.h"

namespace AscendC {
struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizeConfig {
    constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};
}  // namespace AscendC

namespace kgen {
namespace adv {

constexpr uint32_t welford_update_min_tmp(uint32_t tsT, bool reuse) { return (tsT == 2 ? 3 : (reuse ? 1 : 2)) * 256; }
constexpr uint32_t welford_update_max_tmp(uint32_t tsT, bool reuse, uint32_t rn, uint32_t ab) {
    return (rn * ab + 63) / 64 * welford_update_min_tmp(tsT, reuse);
}
constexpr uint32_t welford_finalize_min_tmp() { return 64 * 4 * 4; }
constexpr uint32_t welford_finalize_max_tmp(uint32_t ab) { return ab <= 64 ? welford_finalize_min_tmp() : (128 + 2 * ab) * 4; }

template <class T, class U>
inline void welford_update(bool inplace, bool reuse, const AscendC::LocalTensor<U>& om, const AscendC::LocalTensor<U>& ov,
                           const AscendC::LocalTensor<U>& im, const AscendC::LocalTensor<U>& iv, const AscendC::LocalTensor<T>& x,
                           const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::WelfordUpdateParam& p) {
    static_assert(hf_v<T> && std::is_same_v<U, float>, "WelfordUpdate: T half or float, U float");
    const char* api = "WelfordUpdate";
    if (p.rnLength != 1 || p.abLength == 0 || p.abLength % (32 / sizeof(T)) || p.abComputeLength == 0 ||
        p.abComputeLength > p.abLength)
        fail("welford-param", "%s: needs rnLength = 1, abLength a multiple of %u and 0 < abComputeLength <= abLength "
             "(got %u, %u, %u)", api, unsigned(32 / sizeof(T)), p.rnLength, p.abLength, p.abComputeLength);
    const uint32_t n = p.abLength, c = p.abComputeLength;
    for (auto* t : {&om, &ov, &im, &iv}) operand(api, *t, n);
    operand(api, x, n);
    no_overlap(api, om, n, ov, n, "outputMean and outputVariance");
    Tmp t{tmp, welford_update_min_tmp(sizeof(T), reuse), welford_update_max_tmp(sizeof(T), reuse, 1, n)};
    check_tmp(api, t, {{lo_of(om), hi_of(om, n)}, {lo_of(ov), hi_of(ov, n)}, {lo_of(x), hi_of(x, n)}});
    const float r = p.nRec;
    for (uint32_t j = 0; j < n; ++j) {
        const float m0 = im.raw()[j], v0 = iv.raw()[j];
        if (j >= c) {
            if (inplace) { om.raw()[j] = m0; ov.raw()[j] = v0; }
            continue;
        }
        const float xv = static_cast<float>(x.raw()[j]);
        const float d = xv - m0;
        const float dr = d * r;
        const float m1 = m0 + dr;
        const float d2 = xv - m1;
        const float p2 = d * d2;
        om.raw()[j] = m1;
        ov.raw()[j] = v0 + p2;
    }
    clobber_tmp(t);
    trace_call(api, uint64_t(n) * 4, 6);
}

inline void welford_finalize(const AscendC::LocalTensor<float>& om, const AscendC::LocalTensor<float>& ov,
                             const AscendC::LocalTensor<float>& im, const AscendC::LocalTensor<float>& iv,
                             const AscendC::LocalTensor<int32_t>* counts, const AscendC::LocalTensor<uint8_t>* tmp,
                             const AscendC::WelfordFinalizePara& p) {
    const char* api = "WelfordFinalize";
    const uint32_t n = p.abLength;
    if (n == 0 || n % 8 || (!counts && p.headCountLength + p.tailCountLength != n) || (p.tailCount == 0 && p.tailCountLength))
        fail("welford-param", "%s: abLength (%u) must be a non-zero multiple of 8, headCountLength + tailCountLength (%u + %u) "
             "must equal it, and tailCountLength must be 0 when tailCount is 0", api, n, p.headCountLength, p.tailCountLength);
    operand(api, im, n);
    operand(api, iv, n);
    operand(api, om, 1);
    operand(api, ov, 1);
    if (counts) operand(api, *counts, n);
    Tmp t{tmp, welford_finalize_min_tmp(), welford_finalize_max_tmp(n)};
    check_tmp(api, t, {{lo_of(om), hi_of(om, 1)}, {lo_of(ov), hi_of(ov, 1)}, {lo_of(im), hi_of(im, n)}, {lo_of(iv), hi_of(iv, n)}});
    std::vector<double> c(n);
    bool equal = true;
    for (uint32_t j = 0; j < n; ++j) {
        c[j] = counts ? counts->raw()[j] : (j < p.headCountLength ? p.headCount : p.tailCount);
        if (c[j] != c[0]) equal = false;
    }
    double mean = 0;
    for (uint32_t j = 0; j < n; ++j) mean += equal ? static_cast<double>(im.raw()[j]) : c[j] * im.raw()[j];
    mean *= equal ? static_cast<double>(p.abRec) : static_cast<double>(p.rRec);
    double var = 0;
    for (uint32_t j = 0; j < n; ++j) {
        const double dm = im.raw()[j] - mean;
        var += iv.raw()[j] + c[j] * dm * dm;
    }
    om.raw()[0] = static_cast<float>(mean);
    ov.raw()[0] = static_cast<float>(var * static_cast<double>(p.rRec));
    clobber_tmp(t);
    trace_call(api, uint64_t(n) * 8, 6);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, typename U = float, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance, const LocalTensor<U>& inputMean,
                          const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordUpdateParam& para) {
    kgen::adv::welford_update<T, U>(config.isInplace, isReuseSource, outputMean, outputVariance, inputMean, inputVariance,
                                    inputX, &sharedTmpBuffer, para);
}
template <typename T, typename U = float, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance, const LocalTensor<U>& inputMean,
                          const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
    kgen::adv::welford_update<T, U>(config.isInplace, isReuseSource, outputMean, outputVariance, inputMean, inputVariance,
                                    inputX, nullptr, para);
}

#define KGEN_WF_TPL template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
#define KGEN_WF_CFG static_assert(!config.isCorrection, "WelfordFinalize: isCorrection is supported on Ascend 950 only")
KGEN_WF_TPL inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                        const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                        const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
    KGEN_WF_CFG;
    kgen::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para);
}
KGEN_WF_TPL inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                        const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                        const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        WelfordFinalizePara& para) {
    KGEN_WF_CFG;
    kgen::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para);
}
KGEN_WF_TPL inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                        const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                        WelfordFinalizePara& para) {
    KGEN_WF_CFG;
    kgen::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para);
}
KGEN_WF_TPL inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                        const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                        const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
    KGEN_WF_CFG;
    kgen::adv::welford_finalize(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para);
}
#undef KGEN_WF_TPL
#undef KGEN_WF_CFG

}  // namespace AscendC
