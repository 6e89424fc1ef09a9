// kgen AscendC CPU emulator -- calling forms shared by the unary, scalar and compound families.
//
// Documented rules followed (dav-2201, mask chapter of the vector API docs):
//  * A count-form call Op(..., count) with isSetMask = true runs in counter mode and puts the
//    mask state back to its defaults afterwards (normal mode, all-ones mask register), so a
//    mask set earlier with SetVectorMask does not survive a count-form call.
//  * A count-form call with isSetMask = false ignores `count`: in counter mode the mask
//    register holds the number of elements; in normal mode it computes one repeat of
//    contiguous elements selected by the register's bit mask.
//  * count = 0 or repeatTimes = 0 computes nothing and writes nothing.
//  * Scalar arguments are converted to the operand type first, as the scalar register holds
//    a value of that type.
//
// (No public API: helpers for vec_unary.h, vec_scalar.h, vec_compound.h.)
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/vec_engine.h"

namespace kgen {

template <class T, class... Allowed>
inline constexpr bool one_of_v = (std::is_same_v<T, Allowed> || ...);

/// Types accepted as a scalar argument (converted to the operand type).
template <class U>
inline constexpr bool scalar_arg_v = std::is_arithmetic_v<U> || is_f16<U>::value;
template <class U>
using if_scalar = std::enable_if_t<scalar_arg_v<U>, int>;

/// Count-form calls with isSetMask = true leave normal mode and an all-ones mask behind.
inline void after_count_form() {
    CoreContext& c = core();
    c.mask_counter_mode = false;
    c.mask[0] = c.mask[1] = ~0ull;
}

/// Count form of a unary element operation, honouring isSetMask (see the rules above).
template <bool isSetMask, typename TD, typename TS, typename F>
void unary_count_form(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src,
                      int32_t count, F f) {
    if constexpr (isSetMask) {
        unary_count(api, dst, src, count, f);
        after_count_form();
    } else {
        uint32_t rep = 1;
        MaskSpec m = register_mask(per_repeat<TD, TS>(), &rep);
        unary_repeat(api, dst, src, m, rep, AscendC::UnaryRepeatParams(), f);
    }
}

/// Mask/repeat form of a unary element operation (mask is uint64_t or const uint64_t*).
template <bool isSetMask, typename TD, typename TS, typename M, typename F>
void unary_mask_form(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src, M mask,
                     uint8_t repeatTime, const AscendC::UnaryRepeatParams& p, F f) {
    uint32_t rep = repeatTime;
    MaskSpec m = call_mask<TD, TS>(api, isSetMask, mask, &rep);
    unary_repeat(api, dst, src, m, rep, p, f);
}

/// Mask/repeat form of a binary element operation.
template <bool isSetMask, typename TD, typename TS0, typename TS1, typename M, typename F>
void binary_mask_form(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS0>& s0,
                      const AscendC::LocalTensor<TS1>& s1, M mask, uint8_t repeatTime, const AscendC::BinaryRepeatParams& p,
                      F f) {
    uint32_t rep = repeatTime;
    MaskSpec m = call_mask<TD, TS0, TS1>(api, isSetMask, mask, &rep);
    binary_repeat(api, dst, s0, s1, m, rep, p, f);
}

/// Integer arithmetic that wraps modulo 2^bits (well defined for signed types too).
template <class T> inline T wrap_add(T a, T b) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T> inline T wrap_mul(T a, T b) {
    using U = std::make_unsigned_t<std::common_type_t<T, unsigned>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

/// Byte range [lo, hi) an operand of a mask/repeat instruction can touch (upper bound).
template <typename T>
inline void repeat_extent(const T* base, uint32_t repeat, uint32_t per_rep, uint32_t blk, uint32_t rep_stride,
                          uintptr_t* lo, uintptr_t* hi) {
    constexpr uint32_t epb = ONE_BLK / sizeof(T);
    uint64_t last_blk = (per_rep + epb - 1) / epb - 1;
    uint64_t last = uint64_t(repeat ? repeat - 1 : 0) * rep_stride * epb + last_blk * blk * epb + (epb - 1);
    *lo = reinterpret_cast<uintptr_t>(base);
    *hi = reinterpret_cast<uintptr_t>(base + last + 1);
}

/// Fail when two byte ranges overlap (for operand pairs documented as not overlapping).
inline void check_no_overlap(const char* api, uintptr_t a0, uintptr_t a1, uintptr_t b0, uintptr_t b1, const char* why) {
    if (a0 < b1 && b0 < a1) fail("operand-overlap", "%s: %s", api, why);
}

}  // namespace kgen
