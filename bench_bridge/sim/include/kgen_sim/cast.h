// kgen AscendC CPU emulator -- Cast (precision conversion) and its configuration registers.
//
// Documented rules followed (dav-2201, Atlas A2):
//  * Forms: Cast<T, U>(dst, src, roundMode, count) over the first `count` elements, and the
//    mask/repeat forms Cast<T, U, isSetMask>(dst, src, roundMode, mask | mask[2], repeatTime,
//    UnaryRepeatParams). T is the destination type, U the source type.
//  * Mixed widths: a repeat holds 256 / max(sizeof(T), sizeof(U)) elements and the mask counts
//    elements of that repeat; each operand steps in 32-byte blocks of its own type (so
//    half -> int32 contiguous is dstRepStride 8, srcRepStride 4).
//  * Supported (dst <- src : round modes) on Atlas A2; anything else does not compile:
//      half <- int8_t, uint8_t : NONE              float <- int16_t, half, bfloat16_t : NONE
//      half <- int16_t : RINT FLOOR CEIL ROUND TRUNC NONE
//      int8_t, uint8_t <- half : RINT FLOOR CEIL ROUND TRUNC NONE
//      int16_t, int32_t <- half : RINT FLOOR CEIL ROUND TRUNC
//      int32_t <- bfloat16_t : RINT FLOOR CEIL ROUND TRUNC
//      int16_t <- int32_t, int64_t <- int32_t, int32_t <- int64_t : NONE
//      half <- int32_t : any mode, ignored; scaled by the half set with SetDeqScale
//      float <- int32_t : RINT FLOOR CEIL ROUND TRUNC NONE
//      half <- float : RINT FLOOR CEIL ROUND TRUNC ODD NONE
//      bfloat16_t, int16_t, int32_t, int64_t <- float : RINT FLOOR CEIL ROUND TRUNC
//      float <- float : RINT FLOOR CEIL ROUND TRUNC (round to an integral value)
//      float <- int64_t : RINT FLOOR CEIL ROUND TRUNC
//      half <- int4b_t : NONE                      int4b_t <- half : RINT FLOOR CEIL ROUND TRUNC NONE
//    A mode outside a pair's list is reported at run time (`cast-bad-round-mode`): the
//    hardware would skip the conversion and leave dst unwritten. int4b_t (two elements per byte,
//    low nibble first; 64 per 32-byte block in the mask/repeat forms); half -> int4b_t saturates to [-8, 7].
//  * CAST_NONE means CAST_RINT when the conversion can lose precision, no rounding otherwise.
//    Rounding directions: see cast_round.h.
//  * Overflow of a float -> integer or integer -> integer conversion saturates to the target's
//    range by default; SetSaturationFlag<SaturationMode::CAST>(false) keeps the low bits instead.
//    Negative input to an unsigned target is documented as an exception: the emulator writes 0
//    and warns (`cast-negative-to-unsigned`).
//  * Atlas A2 runs in Inf/NaN mode by default (set_device_sat_mode default): float -> half /
//    bfloat16 overflow gives inf (per rounding direction) and NaN stays NaN.
//    SetSaturationFlag<SaturationMode::FLOAT>(true) makes Cast give +-MAX for inf and 0 for NaN.
//  * int32_t -> half: result = src * scale rounded once to half, scale from SetDeqScale(half).
//  * count 0 or repeatTime 0 is a no-operation. Operands must be 32-byte aligned.
// Emulator choices where the documentation is silent: NaN -> integer gives 0; +-inf -> integer
// saturates; int32 -> half without a prior SetDeqScale warns (`cast-deqscale-unset`) and uses 1.0.
//
// @api Cast RoundMode SetDeqScale SaturationMode SetSaturationFlag GetSaturationFlag
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kgen_sim/cast_round.h"
#include "kgen_sim/repeat_plan.h"
#include "kgen_sim/vec_engine.h"

namespace AscendC {

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
    CAST_HYBRID,
};

enum class SaturationMode : uint8_t { FLOAT, CAST };

}  // namespace AscendC

namespace kgen {

/// Per-core conversion registers (each block runs on its own thread, so thread_local = per core).
struct CastRegisters {
    bool sat_cast = true;     // float/int -> int overflow saturates
    bool sat_float = false;   // Inf/NaN mode (A2 default)
    bool deq_set = false;
    float deq_scale = 1.0f;   // DEQSCALE for int32 -> half
};
inline CastRegisters& cast_regs() {
    static thread_local CastRegisters r;
    return r;
}

template <typename T> constexpr const char* type_name() {
    if constexpr (std::is_same_v<T, half>) return "half";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, double>) return "double";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
    else if constexpr (is_int4_v<T>) return "int4b_t";
    else return "unknown";
}

// Round-mode sets, bit k = RoundMode value k.
inline constexpr uint32_t RM_NONE = 1u << 0;
inline constexpr uint32_t RM_DIRECTED = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5);  // RINT..TRUNC
inline constexpr uint32_t RM_ODD = 1u << 6;
inline constexpr uint32_t RM_IGNORED = 0xFFu;

/// The Atlas A2 Cast table: CastPair<dst, src>::modes, 0 = pair not supported.
template <typename TD, typename TS> struct CastPair { static constexpr uint32_t modes = 0; };
#define KGEN_CAST_PAIR(D, S, M) \
    template <> struct CastPair<D, S> { static constexpr uint32_t modes = (M); };
KGEN_CAST_PAIR(half, int8_t, RM_NONE)
KGEN_CAST_PAIR(half, uint8_t, RM_NONE)
KGEN_CAST_PAIR(half, int16_t, RM_DIRECTED | RM_NONE)
KGEN_CAST_PAIR(float, int16_t, RM_NONE)
KGEN_CAST_PAIR(int8_t, half, RM_DIRECTED | RM_NONE)
KGEN_CAST_PAIR(uint8_t, half, RM_DIRECTED | RM_NONE)
KGEN_CAST_PAIR(int16_t, half, RM_DIRECTED)
KGEN_CAST_PAIR(int32_t, half, RM_DIRECTED)
KGEN_CAST_PAIR(float, half, RM_NONE)
KGEN_CAST_PAIR(int32_t, bfloat16_t, RM_DIRECTED)
KGEN_CAST_PAIR(float, bfloat16_t, RM_NONE)
KGEN_CAST_PAIR(int16_t, int32_t, RM_NONE)
KGEN_CAST_PAIR(half, int32_t, RM_IGNORED)
KGEN_CAST_PAIR(float, int32_t, RM_DIRECTED | RM_NONE)
KGEN_CAST_PAIR(int64_t, int32_t, RM_NONE)
KGEN_CAST_PAIR(int16_t, float, RM_DIRECTED)
KGEN_CAST_PAIR(half, float, RM_DIRECTED | RM_ODD | RM_NONE)
KGEN_CAST_PAIR(bfloat16_t, float, RM_DIRECTED)
KGEN_CAST_PAIR(int32_t, float, RM_DIRECTED)
KGEN_CAST_PAIR(float, float, RM_DIRECTED)
KGEN_CAST_PAIR(int64_t, float, RM_DIRECTED)
KGEN_CAST_PAIR(int32_t, int64_t, RM_NONE)
KGEN_CAST_PAIR(float, int64_t, RM_DIRECTED)
KGEN_CAST_PAIR(half, AscendC::int4b_t, RM_NONE)
KGEN_CAST_PAIR(AscendC::int4b_t, half, RM_DIRECTED | RM_NONE)
#undef KGEN_CAST_PAIR

inline const char* round_mode_name(AscendC::RoundMode m) {
    static const char* names[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL",
                                  "CAST_ROUND", "CAST_TRUNC", "CAST_ODD", "CAST_HYBRID"};
    unsigned k = static_cast<unsigned>(m);
    return k < 8 ? names[k] : "invalid RoundMode";
}

/// Everything one Cast call needs per element.
struct CastCtx {
    cvt::Rnd rnd = cvt::Rnd::RINT;
    bool sat_cast = true;
    bool sat_float = false;
    float deq = 1.0f;
    uint64_t negative_to_unsigned = 0;  // count of negative inputs to an unsigned target
};

template <typename TD, typename TS>
inline CastCtx cast_setup(AscendC::RoundMode mode) {
    constexpr uint32_t allowed = CastPair<TD, TS>::modes;
    unsigned k = static_cast<unsigned>(mode);
    if (allowed != RM_IGNORED && (k >= 8 || !((allowed >> k) & 1u))) {
        char list[160] = "";
        static const char* names[] = {"CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL",
                                      "CAST_ROUND", "CAST_TRUNC", "CAST_ODD", "CAST_HYBRID"};
        for (unsigned b = 0; b < 8; ++b)
            if ((allowed >> b) & 1u) {
                if (list[0]) std::strncat(list, " ", sizeof list - std::strlen(list) - 1);
                std::strncat(list, names[b], sizeof list - std::strlen(list) - 1);
            }
        fail("cast-bad-round-mode", "Cast %s -> %s does not support %s on dav-2201 (supported: %s); the hardware "
             "would leave dst unwritten", type_name<TS>(), type_name<TD>(), round_mode_name(mode), list);
    }
    CastCtx c;
    switch (mode) {
        case AscendC::RoundMode::CAST_FLOOR: c.rnd = cvt::Rnd::FLOOR; break;
        case AscendC::RoundMode::CAST_CEIL: c.rnd = cvt::Rnd::CEIL; break;
        case AscendC::RoundMode::CAST_ROUND: c.rnd = cvt::Rnd::ROUND; break;
        case AscendC::RoundMode::CAST_TRUNC: c.rnd = cvt::Rnd::TRUNC; break;
        case AscendC::RoundMode::CAST_ODD: c.rnd = cvt::Rnd::ODD; break;
        default: c.rnd = cvt::Rnd::RINT; break;  // CAST_RINT, and CAST_NONE on a lossy pair
    }
    const CastRegisters& r = cast_regs();
    c.sat_cast = r.sat_cast;
    c.sat_float = r.sat_float;
    if constexpr (std::is_same_v<TD, half> && std::is_same_v<TS, int32_t>) {
        c.rnd = cvt::Rnd::RINT;
        c.deq = r.deq_scale;
        if (!r.deq_set)
            warn("cast-deqscale-unset", "Cast int32_t -> half scales by the DEQSCALE register, but SetDeqScale was "
                 "never called on this core (the emulator uses 1.0; the hardware uses whatever the register holds)");
    }
    return c;
}

template <typename T> inline cvt::Exact exact_of(T v) {
    if constexpr (std::is_same_v<T, half>) return cvt::from_f16_bits(v.bits);
    else if constexpr (std::is_same_v<T, bfloat16_t>) return cvt::from_bf16_bits(v.bits);
    else if constexpr (std::is_same_v<T, float>) return cvt::from_f32(v);
    else if constexpr (std::is_same_v<T, double>) return cvt::from_f64(v);
    else if constexpr (is_int4_v<T>) return cvt::from_int(static_cast<int64_t>(v.value()));
    else if constexpr (std::is_signed_v<T>) return cvt::from_int(static_cast<int64_t>(v));
    else return cvt::from_uint(static_cast<uint64_t>(v));
}

/// One element: dst = convert(src) under the call's rounding and saturation state.
template <typename TD, typename TS>
inline TD cast_one(TS v, CastCtx& c) {
    cvt::Exact x = exact_of(v);
    if constexpr (std::is_same_v<TD, half> && std::is_same_v<TS, int32_t>) {
        x = cvt::from_f64(static_cast<double>(v) * static_cast<double>(c.deq));  // exact: 31 x 11 bits
    }
    if constexpr (is_int4_v<TD>) {  // a signed 4-bit integer
        if (x.nan) return TD(0);
        cvt::IntResult ir;
        if (x.inf) { ir.neg = x.neg; ir.big = true; }
        else ir = cvt::round_to_int(x, c.rnd);
        return TD(static_cast<int>(cvt::to_int_range(ir, -8, 7, 4, c.sat_cast)));
    } else if constexpr (std::is_integral_v<TD>) {
        if (x.nan) return TD(0);
        cvt::IntResult ir;
        if (x.inf) { ir.neg = x.neg; ir.big = true; }
        else ir = cvt::round_to_int(x, c.rnd);
        if (std::is_unsigned_v<TD> && ir.neg && (ir.mag || ir.big)) ++c.negative_to_unsigned;
        int64_t lo = static_cast<int64_t>(std::numeric_limits<TD>::min());
        int64_t hi = static_cast<int64_t>(std::numeric_limits<TD>::max());
        return static_cast<TD>(cvt::to_int_range(ir, lo, hi, 8 * sizeof(TD), c.sat_cast));
    } else if constexpr (std::is_same_v<TD, float> && std::is_same_v<TS, float>) {
        if (x.nan || x.inf) return v;
        if (x.e >= 0) return v;  // already integral
        cvt::IntResult ir = cvt::round_to_int(x, c.rnd);
        float m = static_cast<float>(ir.mag);  // < 2^24: exact
        return x.neg ? -m : m;
    } else if constexpr (std::is_same_v<TD, half>) {
        return half::from_bits(static_cast<uint16_t>(cvt::round_to_fmt(x, c.rnd, cvt::F16, c.sat_float)));
    } else if constexpr (std::is_same_v<TD, bfloat16_t>) {
        return bfloat16_t::from_bits(static_cast<uint16_t>(cvt::round_to_fmt(x, c.rnd, cvt::BF16, c.sat_float)));
    } else {
        static_assert(std::is_same_v<TD, float>, "unhandled Cast destination");
        return bits_f32(cvt::round_to_fmt(x, c.rnd, cvt::F32, false));
    }
}

template <typename TD, typename TS>
inline void cast_finish(CastCtx& c) {
    if (c.negative_to_unsigned)
        warn("cast-negative-to-unsigned", "Cast %s -> %s got %llu negative input(s); the documentation treats them as "
             "an exception (the emulator writes 0)", type_name<TS>(), type_name<TD>(),
             (unsigned long long)c.negative_to_unsigned);
}

template <typename TD, typename TS>
constexpr bool cast_pair_supported() { return CastPair<TD, TS>::modes != 0; }

}  // namespace kgen

namespace AscendC {

/// Count form: converts the first `count` elements of src into dst.
template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint32_t count) {
    static_assert(kgen::cast_pair_supported<T, U>(),
                  "Cast<T, U>: this destination/source type pair is not supported on dav-2201 (Atlas A2); "
                  "see the pair table at the top of kgen_sim/cast.h");
    kgen::check_count_operand("Cast", dst, count);
    kgen::check_count_operand("Cast", src, count);
    if (count == 0) return;
    kgen::CastCtx c = kgen::cast_setup<T, U>(roundMode);
    if (kgen::elem_bits<T>() != kgen::elem_bits<U>()) {
        uint64_t d0 = dst.GetPhyAddr(), d1 = d0 + kgen::bytes_of<T>(count);
        uint64_t s0 = src.GetPhyAddr(), s1 = s0 + kgen::bytes_of<U>(count);
        if (d0 < s1 && s0 < d1 && d0 != s0)
            kgen::warn("cast-overlap", "Cast %s -> %s: dst and src overlap at different offsets; the documentation "
                       "warns the result may be wrong", kgen::type_name<U>(), kgen::type_name<T>());
    }
    T* d = dst.raw();
    const U* s = src.raw();
    if constexpr (kgen::is_int4_v<T> || kgen::is_int4_v<U>) {  // packed 4-bit elements
        if (static_cast<const void*>(d) == static_cast<const void*>(s) && kgen::elem_bits<T>() > kgen::elem_bits<U>()) {
            for (uint32_t i = count; i-- > 0;) kgen::store_elem(d, i, kgen::cast_one<T, U>(kgen::load_elem(s, i), c));
        } else {
            for (uint32_t i = 0; i < count; ++i) kgen::store_elem(d, i, kgen::cast_one<T, U>(kgen::load_elem(s, i), c));
        }
    } else if (d == reinterpret_cast<const T*>(s) && sizeof(T) > sizeof(U)) {
        for (uint32_t i = count; i-- > 0;) d[i] = kgen::cast_one<T, U>(s[i], c);  // widening in place
    } else {
        for (uint32_t i = 0; i < count; ++i) d[i] = kgen::cast_one<T, U>(s[i], c);
    }
    kgen::cast_finish<T, U>(c);
    uint64_t bytes = std::max(kgen::bytes_of<T>(count), kgen::bytes_of<U>(count));
    kgen::trace("Cast", kgen::Pipe::V, bytes, kgen::repeats_for(bytes));
}

namespace detail_cast {
template <typename T, typename U, bool isSetMask, typename M>
inline void cast_repeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode roundMode, M mask,
                        uint8_t repeatTime, const UnaryRepeatParams& p) {
    static_assert(kgen::cast_pair_supported<T, U>(),
                  "Cast<T, U>: this destination/source type pair is not supported on dav-2201 (Atlas A2); "
                  "see the pair table at the top of kgen_sim/cast.h");
    constexpr uint32_t per = kgen::per_repeat<T, U>();
    kgen::RepeatPlan plan = kgen::make_plan("Cast", mask, per, repeatTime, isSetMask);
    if (plan.repeat == 0) return;
    kgen::CastCtx c = kgen::cast_setup<T, U>(roundMode);
    if constexpr (kgen::is_int4_v<T> || kgen::is_int4_v<U>) {
        // packed 4-bit elements: a 32-byte block holds 64 of them; lane i of repeat r sits in block i / (elements
        // per block) of its operand, blocks blkStride apart, repeats repStride blocks apart (as for other types)
        auto pos = [](uint32_t bits, uint32_t r, uint32_t i, uint32_t blk, uint32_t rep) -> uint64_t {
            const uint64_t be = 8 * kgen::ONE_BLK / bits;
            return uint64_t(r) * rep * be + uint64_t(i / be) * blk * be + i % be;
        };
        dst.check_aligned("Cast");
        src.check_aligned("Cast");
        kgen::walk(plan, per, [&](uint32_t r, uint32_t i) {
            const uint64_t dp = pos(kgen::elem_bits<T>(), r, i, p.dstBlkStride, p.dstRepStride);
            const uint64_t sp = pos(kgen::elem_bits<U>(), r, i, p.srcBlkStride, p.srcRepStride);
            dst.check(dp, 1, "Cast");
            src.check(sp, 1, "Cast");
            kgen::store_elem(dst.raw(), dp, kgen::cast_one<T, U>(kgen::load_elem(src.raw(), sp), c));
        });
        kgen::cast_finish<T, U>(c);
        kgen::trace("Cast", kgen::Pipe::V, uint64_t(plan.repeat) * kgen::ONE_REP, plan.repeat);
        return;
    }
    kgen::Strided<T> D(dst, p.dstBlkStride, p.dstRepStride, "Cast");
    kgen::Strided<const U> S(src, p.srcBlkStride, p.srcRepStride, "Cast");
    kgen::walk(plan, per, [&](uint32_t r, uint32_t i) { D.at(r, i) = kgen::cast_one<T, U>(S.at(r, i), c); });
    kgen::cast_finish<T, U>(c);
    kgen::trace("Cast", kgen::Pipe::V, uint64_t(plan.repeat) * kgen::ONE_REP, plan.repeat);
}
}  // namespace detail_cast

/// Mask/repeat form, bit mask.
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    detail_cast::cast_repeat<T, U, isSetMask>(dst, src, roundMode, mask, repeatTime, repeatParams);
}
/// Mask/repeat form, normal (continuous) mask.
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    detail_cast::cast_repeat<T, U, isSetMask>(dst, src, roundMode, mask, repeatTime, repeatParams);
}

/// DEQSCALE for Cast int32_t -> half: each result is src * scale, rounded once to half.
inline void SetDeqScale(half scale) {
    kgen::cast_regs().deq_scale = static_cast<float>(scale);
    kgen::cast_regs().deq_set = true;
}

/// Saturation switches: CAST (float/int -> int overflow: saturate, or keep low bits when off)
/// and FLOAT (half/bfloat16 results: inf -> +-MAX and NaN -> 0 when on).
template <SaturationMode mode>
inline void SetSaturationFlag(bool enableSat) {
    if constexpr (mode == SaturationMode::CAST) kgen::cast_regs().sat_cast = enableSat;
    else kgen::cast_regs().sat_float = enableSat;
}
template <SaturationMode mode>
inline bool GetSaturationFlag() {
    if constexpr (mode == SaturationMode::CAST) return kgen::cast_regs().sat_cast;
    else return kgen::cast_regs().sat_float;
}

}  // namespace AscendC
