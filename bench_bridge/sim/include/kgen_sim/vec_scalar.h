// kgen AscendC CPU emulator -- vector-scalar operations: Adds, Muls, Maxs, Mins, ShiftLeft,
// ShiftRight, LeakyRelu.
//
// Documented rules followed (dav-2201):
//  * Forms: count Op<T, isSetMask>(dst, src, scalarValue, count) and mask/repeat
//    Op<T, isSetMask>(dst, src, scalarValue, mask | mask[], repeatTime, UnaryRepeatParams)
//    (ShiftRight's mask/repeat forms take a trailing `bool roundEn = false`). Masks, strides,
//    counter mode and isSetMask = false on the count form: vec_engine.h, vec_forms.h.
//  * The scalar is a value of the element type; the emulator accepts any arithmetic type or
//    half/bfloat16_t and converts it to T first (so `2.0f`, `(half)2.0` and `2` all work).
//  * Element types on Atlas A2: Adds, Muls, Maxs, Mins: int16_t, half, int32_t, float.
//    LeakyRelu: half, float. ShiftLeft/ShiftRight: int16_t, uint16_t, int32_t, uint32_t.
//    Other types are rejected at compile time (static_assert).
//  * dst = src + s, src * s, max(src, s), min(src, s); LeakyRelu: src if src >= 0, else
//    src * s. 16-bit floats compute in float and round once. Integer Adds/Muls wrap
//    (modulo 2^bits; not stated by the docs). Maxs/Mins of floats follow fmax/fmin for NaN.
//  * ShiftLeft: unsigned types shift logically; signed types keep their sign bit and shift
//    the other bits (the bit below the sign is dropped, zeros enter at the bottom).
//    ShiftRight: unsigned logical, signed arithmetic (sign copied in). The shift must be in
//    [0, 16] for 16-bit and [0, 32] for 32-bit types (`shift-out-of-range` error otherwise).
//  * ShiftRight roundEn (signed types only; ignored for unsigned): after shifting right by
//    n >= 1, add the last bit shifted out (bit n-1 of the source).
//
// @api Adds Muls Maxs Mins ShiftLeft ShiftRight LeakyRelu
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/vec_binary.h"
#include "kgen_sim/vec_forms.h"

namespace kgen {

template <class T> inline constexpr bool arith_scalar_type_v = one_of_v<T, int16_t, half, int32_t, float>;
template <class T> inline constexpr bool shift_type_v = one_of_v<T, int16_t, uint16_t, int32_t, uint32_t>;

template <class T> inline T sadd(T a, T s) {
    static_assert(arith_scalar_type_v<T>, "Adds supports int16_t, half, int32_t and float only on dav-2201");
    if constexpr (std::is_integral_v<T>) return wrap_add(a, s);
    else return vadd(a, s);
}
template <class T> inline T smul(T a, T s) {
    static_assert(arith_scalar_type_v<T>, "Muls supports int16_t, half, int32_t and float only on dav-2201");
    if constexpr (std::is_integral_v<T>) return wrap_mul(a, s);
    else return vmul(a, s);
}
template <class T> inline T smax(T a, T s) {
    static_assert(arith_scalar_type_v<T>, "Maxs supports int16_t, half, int32_t and float only on dav-2201");
    return vmax(a, s);
}
template <class T> inline T smin(T a, T s) {
    static_assert(arith_scalar_type_v<T>, "Mins supports int16_t, half, int32_t and float only on dav-2201");
    return vmin(a, s);
}
template <class T> inline T sleaky(T a, T s) {
    static_assert(one_of_v<T, half, float>, "LeakyRelu supports half and float only on dav-2201");
    return a >= T(0) ? a : vmul(a, s);
}

/// The shift amount as a number of bits, checked against the documented range.
template <class T> inline uint32_t shift_amount(const char* api, T s) {
    static_assert(shift_type_v<T>, "ShiftLeft/ShiftRight support int16_t, uint16_t, int32_t and uint32_t only on dav-2201");
    constexpr int64_t bits = 8 * sizeof(T);
    int64_t n = static_cast<int64_t>(s);
    if (n < 0 || n > bits)
        fail("shift-out-of-range", "%s: shift by %lld bits; it must be in [0, %lld] for a %lld-bit type", api, (long long)n,
             (long long)bits, (long long)bits);
    return static_cast<uint32_t>(n);
}
template <class T> inline T shl(T a, uint32_t n) {
    using U = std::make_unsigned_t<T>;
    constexpr uint32_t bits = 8 * sizeof(T);
    U u = static_cast<U>(a);
    U shifted = n >= bits ? U(0) : static_cast<U>(u << n);
    if constexpr (std::is_signed_v<T>) {
        constexpr U sign = static_cast<U>(U(1) << (bits - 1));
        shifted = static_cast<U>((u & sign) | (shifted & static_cast<U>(~sign)));
    }
    return static_cast<T>(shifted);
}
template <class T> inline T shr(T a, uint32_t n, bool roundEn) {
    constexpr uint32_t bits = 8 * sizeof(T);
    if constexpr (std::is_signed_v<T>) {
        int64_t v = static_cast<int64_t>(a);
        int64_t r = v >> (n >= bits ? bits - 1 : n);  // arithmetic: a full-width shift leaves 0 or -1
        if (n >= bits) r = v < 0 ? -1 : 0;
        if (roundEn && n >= 1 && n <= bits && ((static_cast<uint64_t>(v) >> (n - 1)) & 1u)) r += 1;
        return static_cast<T>(r);
    } else {
        (void)roundEn;
        return n >= bits ? T(0) : static_cast<T>(a >> n);
    }
}

}  // namespace kgen

/// Declares the count and mask/repeat forms of a vector-scalar API. BODY computes `d` from
/// `s` (source element) and `v` (the scalar converted to T); PREP runs once per call;
/// EXTRA_DECL is the mask/repeat forms' trailing parameter (ShiftRight's roundEn).
#define KGEN_SCALAR_API(NAME, PREP, BODY, EXTRA_DECL)                                                                 \
    template <typename T, bool isSetMask = true, typename U, kgen::if_scalar<U> = 0>                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,                     \
                     const int32_t& count) {                                                                          \
        const T v = static_cast<T>(scalarValue);                                                                      \
        const bool roundEn = false;                                                                                   \
        (void)roundEn;                                                                                                \
        PREP;                                                                                                         \
        kgen::unary_count_form<isSetMask>(#NAME, dst, src, count, [&](T& d, T s) { BODY; });                          \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true, typename U, kgen::if_scalar<U> = 0>                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, uint64_t mask,      \
                     const uint8_t repeatTime, const UnaryRepeatParams& repeatParams EXTRA_DECL) {                    \
        const T v = static_cast<T>(scalarValue);                                                                      \
        PREP;                                                                                                         \
        kgen::unary_mask_form<isSetMask>(#NAME, dst, src, mask, repeatTime, repeatParams, [&](T& d, T s) { BODY; }); \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true, typename U, kgen::if_scalar<U> = 0>                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,                     \
                     const uint64_t mask[], const uint8_t repeatTime,                                                 \
                     const UnaryRepeatParams& repeatParams EXTRA_DECL) {                                              \
        const T v = static_cast<T>(scalarValue);                                                                      \
        PREP;                                                                                                         \
        kgen::unary_mask_form<isSetMask>(#NAME, dst, src, mask, repeatTime, repeatParams, [&](T& d, T s) { BODY; }); \
    }

#define KGEN_NO_EXTRA
#define KGEN_ROUND_EN , bool roundEn = false
#define KGEN_NO_PREP (void)0
#define KGEN_SHIFT_PREP(NAME) const uint32_t n = kgen::shift_amount(NAME, v)

namespace AscendC {
KGEN_SCALAR_API(Adds, KGEN_NO_PREP, (d = kgen::sadd(s, v)), KGEN_NO_EXTRA)
KGEN_SCALAR_API(Muls, KGEN_NO_PREP, (d = kgen::smul(s, v)), KGEN_NO_EXTRA)
KGEN_SCALAR_API(Maxs, KGEN_NO_PREP, (d = kgen::smax(s, v)), KGEN_NO_EXTRA)
KGEN_SCALAR_API(Mins, KGEN_NO_PREP, (d = kgen::smin(s, v)), KGEN_NO_EXTRA)
KGEN_SCALAR_API(LeakyRelu, KGEN_NO_PREP, (d = kgen::sleaky(s, v)), KGEN_NO_EXTRA)
KGEN_SCALAR_API(ShiftLeft, KGEN_SHIFT_PREP("ShiftLeft"), (d = kgen::shl(s, n)), KGEN_NO_EXTRA)
KGEN_SCALAR_API(ShiftRight, KGEN_SHIFT_PREP("ShiftRight"), (d = kgen::shr(s, n, roundEn)), KGEN_ROUND_EN)
}  // namespace AscendC

#undef KGEN_NO_EXTRA
#undef KGEN_ROUND_EN
#undef KGEN_NO_PREP
#undef KGEN_SHIFT_PREP
