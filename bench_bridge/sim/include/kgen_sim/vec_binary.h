// kgen AscendC CPU emulator -- vector binary arithmetic and logic.
//
// Documented rules followed: each API has the count form Op(dst, src0, src1, count) and the
// mask/repeat forms Op<T, isSetMask>(dst, src0, src1, mask | mask[2], repeatTimes,
// BinaryRepeatParams) (addressing and masking: vec_engine.h). 16-bit floats are computed
// as one correctly rounded operation (half.h). Integer arithmetic wraps. Div of floats
// follows IEEE (x/0 = +-inf, 0/0 = NaN). Max/Min return the other operand when one is NaN
// is not documented; the emulator follows std::fmax/fmin semantics for floats.
//
// @api Add Sub Mul Div Max Min And Or AddRelu SubRelu
#pragma once
#include <cmath>

#include "kgen_sim/vec_forms.h"

namespace kgen {

template <typename T> inline T vadd(T a, T b) { return static_cast<T>(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(b)); }
template <typename T> inline T vsub(T a, T b) { return static_cast<T>(static_cast<compute_t<T>>(a) - static_cast<compute_t<T>>(b)); }
template <typename T> inline T vmul(T a, T b) { return static_cast<T>(static_cast<compute_t<T>>(a) * static_cast<compute_t<T>>(b)); }
template <typename T> inline T vdiv(T a, T b) {
    if constexpr (is_float_v<T>) return static_cast<T>(static_cast<compute_t<T>>(a) / static_cast<compute_t<T>>(b));
    else {
        if (b == 0) fail("int-div-zero", "Div: integer division by zero");
        return static_cast<T>(a / b);
    }
}
template <typename T> inline T vmax(T a, T b) {
    if constexpr (is_float_v<T>) return static_cast<T>(std::fmax(static_cast<float>(a), static_cast<float>(b)));
    else return a > b ? a : b;
}
template <typename T> inline T vmin(T a, T b) {
    if constexpr (is_float_v<T>) return static_cast<T>(std::fmin(static_cast<float>(a), static_cast<float>(b)));
    else return a < b ? a : b;
}
template <typename T> inline T vand(T a, T b) {
    static_assert(std::is_integral_v<T>, "And supports integer types (int16_t/uint16_t) only");
    return static_cast<T>(a & b);
}
template <typename T> inline T vor(T a, T b) {
    static_assert(std::is_integral_v<T>, "Or supports integer types (int16_t/uint16_t) only");
    return static_cast<T>(a | b);
}
template <typename T> inline T vrelu(T a) { return a > T(0) ? a : T(0); }
template <typename T> inline T vaddrelu(T a, T b) { return vrelu(vadd(a, b)); }
template <typename T> inline T vsubrelu(T a, T b) { return vrelu(vsub(a, b)); }

}  // namespace kgen

/// Declares the three documented forms of a same-type binary vector API (calling-form rules:
/// vec_forms.h — count form with isSetMask, counter mode, mask register).
#define KGEN_BINARY_API(NAME, FN)                                                                                     \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                     const int32_t& count) {                                                                          \
        auto f = [](T& d, T a, T b) { d = FN(a, b); };                                                                \
        if constexpr (isSetMask) {                                                                                    \
            kgen::binary_count(#NAME, dst, src0, src1, count, f);                                                     \
            kgen::after_count_form();                                                                                 \
        } else {                                                                                                      \
            uint32_t rep = 1;                                                                                         \
            kgen::MaskSpec m = kgen::register_mask(kgen::per_repeat<T>(), &rep);                                      \
            kgen::binary_repeat(#NAME, dst, src0, src1, m, rep, BinaryRepeatParams(), f);                             \
        }                                                                                                             \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                     uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& p) {                         \
        kgen::binary_mask_form<isSetMask>(#NAME, dst, src0, src1, mask, repeatTimes, p,                               \
                                          [](T& d, T a, T b) { d = FN(a, b); });                                      \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                     const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams& p) {                 \
        kgen::binary_mask_form<isSetMask>(#NAME, dst, src0, src1, static_cast<const uint64_t*>(mask), repeatTimes, p, \
                                          [](T& d, T a, T b) { d = FN(a, b); });                                      \
    }

namespace AscendC {
KGEN_BINARY_API(Add, kgen::vadd)
KGEN_BINARY_API(Sub, kgen::vsub)
KGEN_BINARY_API(Mul, kgen::vmul)
KGEN_BINARY_API(Div, kgen::vdiv)
KGEN_BINARY_API(Max, kgen::vmax)
KGEN_BINARY_API(Min, kgen::vmin)
KGEN_BINARY_API(And, kgen::vand)
KGEN_BINARY_API(Or, kgen::vor)
KGEN_BINARY_API(AddRelu, kgen::vaddrelu)
KGEN_BINARY_API(SubRelu, kgen::vsubrelu)
}  // namespace AscendC
