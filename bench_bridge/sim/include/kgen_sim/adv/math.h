// kgen AscendC CPU emulator -- high-level math, one-input APIs: trigonometric and hyperbolic
// functions, Erf/Erfc, rounding (Ceil, Floor, Round, Trunc, Frac), Sign, Log/Log2/Log10 and the
// high-level Exp with its Taylor-expansion level.
//
// Documented rules followed (dav-2201 pages of each API):
//  * Forms: Op<T, isReuseSource = false>(dst, src, sharedTmpBuffer, calCount),
//    (dst, src, sharedTmpBuffer) (calCount = src.GetSize()), (dst, src, calCount) and (dst, src)
//    where the API takes its own temporary buffer. Ceil, Floor and Round have only the two
//    calCount forms; Log and Log10 need no temporary buffer and have only (dst, src[, calCount]).
//    Exp<T, taylorExpandLevel, isReuseSource>(dst, src[, sharedTmpBuffer], calCount).
//  * T is half or float (static_assert otherwise). isReuseSource only matters for float.
//  * Source and destination must not overlap, except for Round and Trunc.
//  * Temporary-buffer size rules: adv/tmp_rules.h; checks: adv/adv_common.h.
//  * Sin, Cos (and Tan) expect inputs in [-65504, 65504] on Atlas A2; Acos/Asin [-1, 1];
//    Acosh >= 1; Atanh (-1, 1); Log family > 0. Outside, the emulator warns (`adv-domain`).
//  * Round rounds half-way cases to the even integer (the NPU implements it with CAST_RINT);
//    Frac(x) = x - Trunc(x); Sign gives -1, 0 or 1.
//  * Exp with taylorExpandLevel = n > 0: e^x = e^floor(x) * sum_{k=0..n} f^k / k!, f = x - floor(x)
//    (the documented formula; few terms are visibly inaccurate, the emulator reproduces that);
//    level 0 evaluates e^x directly.
//
// Precision (what the emulator computes vs the NPU):
//  * Ceil, Floor, Round, Trunc, Frac, Sign: exact, as on the NPU.
//  * All others: the function evaluated in double and rounded to T (correctly rounded except for
//    rare double-rounding cases). The NPU evaluates polynomial / rational approximations in
//    float (for half inputs too, then casts): its float results differ from the exact ones by a
//    few ulp (not documented per API), its half results usually by at most 1 ulp of half. Both
//    are inside NPUKernelBench's thresholds (half 1e-3, float 1e-5 relative-or-absolute) for
//    inputs inside the documented ranges.
//
// @api Acos Acosh Asin Asinh Atan Atanh Cos Cosh Sin Sinh Tan Tanh Erf Erfc Ceil Floor Round Trunc Frac Sign Log Log2 Log10 Exp
#pragma once
#include <cmath>
#include <cstdint>

#include "kgen_sim/adv/adv_common.h"

namespace kgen {
namespace adv {

// ---- element functions: double in, double out ---------------------------------------------
inline double d_sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : (std::isnan(x) ? x : 0.0)); }
inline double d_frac(double x) { return std::isinf(x) ? 0.0 : x - std::trunc(x); }
inline double d_round(double x) { return std::nearbyint(x); }  // default FP mode: ties to even

/// Which inputs are outside an API's documented domain.
enum class Dom { any, trig, unit_closed, ge1, unit_open, positive };
inline bool out_of(Dom d, double x) {
    switch (d) {
        case Dom::any: return false;
        case Dom::trig: return !(std::fabs(x) <= 65504.0);
        case Dom::unit_closed: return !(std::fabs(x) <= 1.0);
        case Dom::ge1: return !(x >= 1.0);
        case Dom::unit_open: return !(std::fabs(x) < 1.0);
        case Dom::positive: return !(x > 0.0);
    }
    return false;
}
inline const char* dom_text(Dom d) {
    switch (d) {
        case Dom::trig: return "an input outside [-65504, 65504]";
        case Dom::unit_closed: return "an input outside [-1, 1]";
        case Dom::ge1: return "an input below 1";
        case Dom::unit_open: return "an input outside (-1, 1)";
        case Dom::positive: return "a non-positive input";
        default: return "";
    }
}

/// One call of a one-input math API with the rule `nodes` and domain `dom`.
template <class T, bool reuse, class F>
inline void math1(const char* api, const LiveNodes& nodes, Dom dom, bool overlap_ok, const AscendC::LocalTensor<T>& dst,
                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n, F f) {
    static_assert(hf_v<T>, "this high-level math API supports half and float only on dav-2201");
    Tmp t{tmp, min_tmp(nodes, sizeof(T), reuse), max_tmp(nodes, sizeof(T), reuse, n)};
    bool bad = false;
    unary_elementwise(api, dst, src, n, t, overlap_ok, nodes.of(sizeof(T), reuse) + 1, [&](T x) {
        double v = static_cast<double>(static_cast<float>(x));
        if (out_of(dom, v) && !std::isnan(v)) bad = true;
        return apply_d(x, f);
    });
    domain_note(api, bad, dom_text(dom));
}

/// e^x by the documented Taylor scheme with `level` terms after the constant (0: direct).
inline double exp_taylor(double x, unsigned level) {
    if (level == 0 || !std::isfinite(x)) return std::exp(x);
    double ip = std::floor(x), f = x - ip, term = 1.0, sum = 1.0;
    for (unsigned k = 1; k <= level; ++k) {
        term *= f / k;
        sum += term;
    }
    return std::exp(ip) * sum;
}

}  // namespace adv
}  // namespace kgen

/// The four documented forms of a one-input high-level math API.
#define KGEN_ADV_MATH1_4(NAME, NODES, DOM, OVERLAP_OK, FN)                                                          \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                        \
        kgen::adv::math1<T, isReuseSource>(#NAME, NODES, DOM, OVERLAP_OK, dstTensor, srcTensor, &sharedTmpBuffer,   \
                                           calCount, FN);                                                           \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                     const LocalTensor<uint8_t>& sharedTmpBuffer) {                                                 \
        kgen::adv::math1<T, isReuseSource>(#NAME, NODES, DOM, OVERLAP_OK, dstTensor, srcTensor, &sharedTmpBuffer,   \
                                           srcTensor.GetSize(), FN);                                                \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {   \
        kgen::adv::math1<T, isReuseSource>(#NAME, NODES, DOM, OVERLAP_OK, dstTensor, srcTensor, nullptr, calCount,  \
                                           FN);                                                                     \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                            \
        kgen::adv::math1<T, isReuseSource>(#NAME, NODES, DOM, OVERLAP_OK, dstTensor, srcTensor, nullptr,            \
                                           srcTensor.GetSize(), FN);                                                \
    }

/// The two calCount forms (Ceil, Floor, Round).
#define KGEN_ADV_MATH1_2(NAME, NODES, DOM, OVERLAP_OK, FN)                                                          \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                              \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                        \
        kgen::adv::math1<T, isReuseSource>(#NAME, NODES, DOM, OVERLAP_OK, dstTensor, srcTensor, &sharedTmpBuffer,   \
                                           calCount, FN);                                                           \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount) {   \
        kgen::adv::math1<T, isReuseSource>(#NAME, NODES, DOM, OVERLAP_OK, dstTensor, srcTensor, nullptr, calCount,  \
                                           FN);                                                                     \
    }

namespace AscendC {

using kgen::adv::Dom;

// clang-format off
KGEN_ADV_MATH1_4(Acos,  kgen::adv::kAcos,  Dom::unit_closed, false, [](double x) { return std::acos(x); })
KGEN_ADV_MATH1_4(Acosh, kgen::adv::kAcosh, Dom::ge1,         false, [](double x) { return std::acosh(x); })
KGEN_ADV_MATH1_4(Asin,  kgen::adv::kAsin,  Dom::unit_closed, false, [](double x) { return std::asin(x); })
KGEN_ADV_MATH1_4(Asinh, kgen::adv::kAsinh, Dom::any,         false, [](double x) { return std::asinh(x); })
KGEN_ADV_MATH1_4(Atan,  kgen::adv::kAtan,  Dom::any,         false, [](double x) { return std::atan(x); })
KGEN_ADV_MATH1_4(Atanh, kgen::adv::kAtanh, Dom::unit_open,   false, [](double x) { return std::atanh(x); })
KGEN_ADV_MATH1_4(Cos,   kgen::adv::kCos,   Dom::trig,        false, [](double x) { return std::cos(x); })
KGEN_ADV_MATH1_4(Cosh,  kgen::adv::kCosh,  Dom::any,         false, [](double x) { return std::cosh(x); })
KGEN_ADV_MATH1_4(Sin,   kgen::adv::kSin,   Dom::trig,        false, [](double x) { return std::sin(x); })
KGEN_ADV_MATH1_4(Sinh,  kgen::adv::kSinh,  Dom::any,         false, [](double x) { return std::sinh(x); })
KGEN_ADV_MATH1_4(Tan,   kgen::adv::kTan,   Dom::trig,        false, [](double x) { return std::tan(x); })
KGEN_ADV_MATH1_4(Tanh,  kgen::adv::kTanh,  Dom::any,         false, [](double x) { return std::tanh(x); })
KGEN_ADV_MATH1_4(Erf,   kgen::adv::kErf,   Dom::any,         false, [](double x) { return std::erf(x); })
KGEN_ADV_MATH1_4(Erfc,  kgen::adv::kErfc,  Dom::any,         false, [](double x) { return std::erfc(x); })
KGEN_ADV_MATH1_4(Trunc, kgen::adv::kTrunc, Dom::any,         true,  [](double x) { return std::trunc(x); })
KGEN_ADV_MATH1_4(Frac,  kgen::adv::kFrac,  Dom::any,         false, kgen::adv::d_frac)
KGEN_ADV_MATH1_4(Sign,  kgen::adv::kSign,  Dom::any,         false, kgen::adv::d_sign)
KGEN_ADV_MATH1_4(Log2,  kgen::adv::kLog2,  Dom::positive,    false, [](double x) { return std::log2(x); })
KGEN_ADV_MATH1_2(Ceil,  kgen::adv::kCeil,  Dom::any,         false, [](double x) { return std::ceil(x); })
KGEN_ADV_MATH1_2(Floor, kgen::adv::kFloor, Dom::any,         false, [](double x) { return std::floor(x); })
KGEN_ADV_MATH1_2(Round, kgen::adv::kRound, Dom::any,         true,  kgen::adv::d_round)
// clang-format on

/// Log (natural) and Log10: no temporary buffer.
template <typename T, bool isReuseSource = false>
inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    kgen::adv::math1<T, isReuseSource>("Log", kgen::adv::kNone, Dom::positive, false, dstTensor, srcTensor, nullptr, calCount,
                                       [](double x) { return std::log(x); });
}
template <typename T, bool isReuseSource = false>
inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
inline void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount) {
    kgen::adv::math1<T, isReuseSource>("Log10", kgen::adv::kNone, Dom::positive, false, dstTensor, srcTensor, nullptr,
                                       calCount, [](double x) { return std::log10(x); });
}
template <typename T, bool isReuseSource = false>
inline void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
    Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}

/// High-level Exp: the Taylor level is a template argument (the basic Exp has none).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const uint32_t calCount) {
    static_assert(kgen::adv::hf_v<T>, "Exp (high-level) supports half and float only on dav-2201");
    kgen::adv::Tmp t{&sharedTmpBuffer, kgen::adv::exp_min_tmp(sizeof(T), isReuseSource),
                     kgen::adv::exp_max_tmp(sizeof(T), isReuseSource, calCount)};
    kgen::adv::unary_elementwise("Exp", dstLocal, srcLocal, calCount, t, false, 2 + taylorExpandLevel, [](T x) {
        return kgen::adv::apply_d(x, [](double v) { return kgen::adv::exp_taylor(v, taylorExpandLevel); });
    });
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount) {
    static_assert(kgen::adv::hf_v<T>, "Exp (high-level) supports half and float only on dav-2201");
    kgen::adv::Tmp t{nullptr, kgen::adv::exp_min_tmp(sizeof(T), isReuseSource), 0};
    kgen::adv::unary_elementwise("Exp", dstLocal, srcLocal, calCount, t, false, 2 + taylorExpandLevel, [](T x) {
        return kgen::adv::apply_d(x, [](double v) { return kgen::adv::exp_taylor(v, taylorExpandLevel); });
    });
}

}  // namespace AscendC
