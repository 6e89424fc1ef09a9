// kgen AscendC CPU emulator -- unary vector math: Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu, Not.
//
// Documented rules followed (dav-2201):
//  * Forms: count Op(dst, src, count), and mask/repeat Op<T, isSetMask>(dst, src, mask | mask[],
//    repeatTime, UnaryRepeatParams) (addressing and masks: vec_engine.h; counter mode and the
//    count form's effect on the mask state: vec_forms.h). count/repeatTime 0 is a no-op.
//  * Element types on Atlas A2: Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal: half, float.
//    Relu: half, int32_t, float. Not: int16_t, uint16_t. Other types are rejected at compile
//    time (static_assert naming the API and the supported types).
//  * Sqrt and Rsqrt of a non-positive value and Reciprocal of 0 give an unspecified result on
//    the NPU: the emulator reports a `math-domain` warning (once per source line) and returns
//    the IEEE value (NaN, +-inf, 0).
//  * Rsqrt and Reciprocal are documented as less precise on the NPU than the 1e-3 (half) /
//    1e-4 (float) comparison thresholds; use Div and Sqrt when precision matters.
//
// What the emulator computes (precision):
//  * Abs, Relu, Not: exact.
//  * Sqrt, Reciprocal: correctly rounded (computed in double, rounded to float, then to half
//    for half; double and float are wide enough that each rounding step stays correct).
//  * Exp, Ln, Rsqrt: the libm double result rounded to float (then to half): within 1 ulp of
//    the exact value, almost always correctly rounded. The NPU's own approximations are not
//    documented for dav-2201 and may differ from this in the last bit(s).
//  * Subnormal inputs and results are kept (not flushed to zero).
//
// @api Exp Ln Abs Sqrt Rsqrt Reciprocal Relu Not
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "kgen_sim/vec_binary.h"
#include "kgen_sim/vec_forms.h"

namespace kgen {

template <class T> inline constexpr bool half_or_float_v = one_of_v<T, half, float>;

/// Apply a double-precision function and round to float, then to T.
template <class T, class F> inline T via_double(T x, F f) {
    return T(static_cast<float>(f(static_cast<double>(static_cast<float>(x)))));
}

template <class T> inline T vexp(T x, bool&) {
    static_assert(half_or_float_v<T>, "Exp supports half and float only on dav-2201");
    return via_double(x, [](double v) { return std::exp(v); });
}
template <class T> inline T vln(T x, bool&) {
    static_assert(half_or_float_v<T>, "Ln supports half and float only on dav-2201");
    return via_double(x, [](double v) { return std::log(v); });
}
template <class T> inline T vabs(T x, bool&) {
    static_assert(half_or_float_v<T>, "Abs supports half and float only on dav-2201");
    if constexpr (std::is_same_v<T, float>) return std::fabs(x);
    else return T::from_bits(static_cast<uint16_t>(x.bits & 0x7FFFu));
}
template <class T> inline T vsqrt(T x, bool& bad) {
    static_assert(half_or_float_v<T>, "Sqrt supports half and float only on dav-2201");
    if (!(static_cast<float>(x) > 0.0f)) bad = true;
    return via_double(x, [](double v) { return std::sqrt(v); });
}
template <class T> inline T vrsqrt(T x, bool& bad) {
    static_assert(half_or_float_v<T>, "Rsqrt supports half and float only on dav-2201");
    if (!(static_cast<float>(x) > 0.0f)) bad = true;
    return via_double(x, [](double v) { return 1.0 / std::sqrt(v); });
}
template <class T> inline T vrec(T x, bool& bad) {
    static_assert(half_or_float_v<T>, "Reciprocal supports half and float only on dav-2201");
    if (static_cast<float>(x) == 0.0f) bad = true;
    return via_double(x, [](double v) { return 1.0 / v; });
}
template <class T> inline T vrelu1(T x, bool&) {
    static_assert(one_of_v<T, half, float, int32_t>, "Relu supports half, float and int32_t only on dav-2201");
    return vrelu(x);
}
template <class T> inline T vnot(T x, bool&) {
    static_assert(one_of_v<T, int16_t, uint16_t>, "Not supports int16_t and uint16_t only on dav-2201");
    return static_cast<T>(~x);
}

/// The `math-domain` warning of an API, or nothing when every input was in its domain.
inline void domain_warning(const char* api, bool bad) {
    if (!bad) return;
    const char* what = std::string(api) == "Reciprocal" ? "a zero input" : "a non-positive input";
    warn("math-domain", "%s got %s: the NPU result is unspecified there (the emulator returns the IEEE value)", api,
         what);
}

}  // namespace kgen

/// Declares the three documented forms of a same-type unary vector API.
#define KGEN_UNARY_API(NAME, FN)                                                                                      \
    template <typename T>                                                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {                   \
        bool bad = false;                                                                                             \
        kgen::unary_count_form<true>(#NAME, dst, src, count, [&bad](T& d, T s) { d = FN(s, bad); });                  \
        kgen::domain_warning(#NAME, bad);                                                                             \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,  \
                     const UnaryRepeatParams& repeatParams) {                                                         \
        bool bad = false;                                                                                             \
        kgen::unary_mask_form<isSetMask>(#NAME, dst, src, mask, repeatTime, repeatParams,                             \
                                         [&bad](T& d, T s) { d = FN(s, bad); });                                      \
        kgen::domain_warning(#NAME, bad);                                                                             \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                    \
                     const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                               \
        bool bad = false;                                                                                             \
        kgen::unary_mask_form<isSetMask>(#NAME, dst, src, mask, repeatTime, repeatParams,                             \
                                         [&bad](T& d, T s) { d = FN(s, bad); });                                      \
        kgen::domain_warning(#NAME, bad);                                                                             \
    }

namespace AscendC {
KGEN_UNARY_API(Exp, kgen::vexp)
KGEN_UNARY_API(Ln, kgen::vln)
KGEN_UNARY_API(Abs, kgen::vabs)
KGEN_UNARY_API(Sqrt, kgen::vsqrt)
KGEN_UNARY_API(Rsqrt, kgen::vrsqrt)
KGEN_UNARY_API(Reciprocal, kgen::vrec)
KGEN_UNARY_API(Relu, kgen::vrelu1)
KGEN_UNARY_API(Not, kgen::vnot)
}  // namespace AscendC
