// kgen AscendC CPU emulator -- exact rounding arithmetic behind Cast.
//
// Every source value (half, bfloat16, float, double, 8..64-bit integers) is first written
// exactly as (-1)^neg * m * 2^e with a 64-bit integer m; it is then rounded once, in the
// requested direction, either to an integer or to a binary floating-point format. No host
// floating-point conversion is involved, so the result does not depend on the host's
// rounding mode. Rounding directions (documented RoundMode meanings):
//   RINT  nearest, ties to even          ROUND nearest, ties away from zero
//   FLOOR toward -inf                    CEIL  toward +inf
//   TRUNC toward zero                    ODD   truncate, then set the last kept bit if
//                                              anything was discarded (von Neumann)
// Float-format overflow follows the IEEE 754 rule for each direction: nearest modes give
// inf, TRUNC and ODD give the largest finite value, FLOOR/CEIL give inf on their own side
// and the largest finite value on the other. With float saturation on, inf becomes the
// largest finite value and NaN becomes 0.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace kgen::cvt {

enum class Rnd : uint8_t { RINT, FLOOR, CEIL, ROUND, TRUNC, ODD };

/// (-1)^neg * m * 2^e, or a NaN / infinity.
struct Exact {
    bool neg = false;
    uint64_t m = 0;
    int e = 0;
    bool nan = false;
    bool inf = false;
};

inline Exact from_ieee(uint64_t bits, int man_bits, int exp_bits) {
    Exact x;
    int bias = (1 << (exp_bits - 1)) - 1;
    uint64_t man = bits & ((1ull << man_bits) - 1);
    uint64_t ef = (bits >> man_bits) & ((1ull << exp_bits) - 1);
    x.neg = (bits >> (man_bits + exp_bits)) & 1;
    if (ef == (1ull << exp_bits) - 1) {
        x.nan = man != 0;
        x.inf = man == 0;
        return x;
    }
    if (ef == 0) {
        x.m = man;
        x.e = 1 - bias - man_bits;
    } else {
        x.m = man | (1ull << man_bits);
        x.e = static_cast<int>(ef) - bias - man_bits;
    }
    return x;
}
inline Exact from_f16_bits(uint16_t b) { return from_ieee(b, 10, 5); }
inline Exact from_bf16_bits(uint16_t b) { return from_ieee(uint64_t(b) << 16, 23, 8); }
inline Exact from_f32(float f) { uint32_t u; std::memcpy(&u, &f, 4); return from_ieee(u, 23, 8); }
inline Exact from_f64(double d) { uint64_t u; std::memcpy(&u, &d, 8); return from_ieee(u, 52, 11); }
inline Exact from_int(int64_t v) {
    Exact x;
    x.neg = v < 0;
    x.m = x.neg ? (~static_cast<uint64_t>(v) + 1) : static_cast<uint64_t>(v);
    return x;
}
inline Exact from_uint(uint64_t v) { Exact x; x.m = v; return x; }

/// Whether to add one unit to the truncated magnitude q.
inline bool round_up(Rnd r, bool neg, uint64_t q, bool half_bit, bool sticky) {
    bool inexact = half_bit || sticky;
    switch (r) {
        case Rnd::RINT: return half_bit && (sticky || (q & 1));
        case Rnd::ROUND: return half_bit;
        case Rnd::FLOOR: return neg && inexact;
        case Rnd::CEIL: return !neg && inexact;
        case Rnd::TRUNC: return false;
        case Rnd::ODD: return inexact && !(q & 1);
    }
    return false;
}

/// m >> s with the first discarded bit and the "anything below it" flag (s >= 1).
inline uint64_t shift_right(uint64_t m, int s, bool* half_bit, bool* sticky) {
    if (s >= 65) { *half_bit = false; *sticky = m != 0; return 0; }
    if (s == 64) { *half_bit = (m >> 63) & 1; *sticky = (m & ((1ull << 63) - 1)) != 0; return 0; }
    *half_bit = (m >> (s - 1)) & 1;
    *sticky = s >= 2 && (m & ((1ull << (s - 1)) - 1)) != 0;
    return m >> s;
}

/// An exact value rounded to an integer: magnitude, or `big` when it is 2^64 or more.
struct IntResult {
    bool neg = false;
    uint64_t mag = 0;
    bool big = false;
};
inline IntResult round_to_int(const Exact& x, Rnd r) {
    IntResult out;
    out.neg = x.neg;
    if (x.m == 0) return out;
    if (x.e >= 0) {
        int nb = 64 - __builtin_clzll(x.m);
        if (nb + x.e > 64) { out.big = true; return out; }
        out.mag = x.m << x.e;
        return out;
    }
    bool h = false, st = false;
    uint64_t q = shift_right(x.m, -x.e, &h, &st);
    if (round_up(r, x.neg, q, h, st)) ++q;  // q < 2^63 here, no carry out
    out.mag = q;
    return out;
}

/// Saturate (or wrap, keeping the low bits) an integer result into [lo, hi].
inline int64_t to_int_range(const IntResult& v, int64_t lo, int64_t hi, int bits, bool saturate) {
    if (saturate) {
        if (v.big) return v.neg ? lo : hi;
        if (!v.neg) return v.mag > static_cast<uint64_t>(hi) ? hi : static_cast<int64_t>(v.mag);
        uint64_t lim = lo < 0 ? (~static_cast<uint64_t>(lo) + 1) : 0;
        if (v.mag > lim) return lo;
        return lo < 0 ? static_cast<int64_t>(~v.mag + 1) : 0;
    }
    uint64_t u = v.big ? 0 : v.mag;
    if (v.neg) u = ~u + 1;
    if (bits < 64) {
        u &= (1ull << bits) - 1;
        bool signed_t = lo < 0;
        if (signed_t && (u >> (bits - 1)) & 1) u |= ~((1ull << bits) - 1);
    }
    return static_cast<int64_t>(u);
}

/// A binary floating-point format: fraction bits, exponent bias, all-ones exponent field, width.
struct Fmt {
    int man;
    int bias;
    int emax_field;
    int width;
};
inline constexpr Fmt F16{10, 15, 31, 16};
inline constexpr Fmt BF16{7, 127, 255, 16};
inline constexpr Fmt F32{23, 127, 255, 32};

/// Round an exact value to format `f`; returns the bit pattern.
inline uint32_t round_to_fmt(const Exact& x, Rnd r, const Fmt& f, bool sat_float) {
    const uint32_t sign = x.neg ? (1u << (f.width - 1)) : 0u;
    const uint32_t inf_bits = static_cast<uint32_t>(f.emax_field) << f.man;
    const uint32_t max_bits = inf_bits - 1;
    if (x.nan) return sat_float ? 0u : (sign | inf_bits | (1u << (f.man - 1)));
    if (x.inf) return sign | (sat_float ? max_bits : inf_bits);
    if (x.m == 0) return sign;
    const int nb = 64 - __builtin_clzll(x.m);
    const int lead = x.e + nb - 1;  // exponent of the leading bit
    const int emin = 1 - f.bias;
    int qexp = std::max(lead, emin) - f.man;  // exponent of the last kept bit
    const int s = qexp - x.e;
    uint64_t q;
    if (s <= 0) {
        q = x.m << (-s);  // exact: at most man + 1 bits
    } else {
        bool h = false, st = false;
        q = shift_right(x.m, s, &h, &st);
        if (round_up(r, x.neg, q, h, st)) ++q;
    }
    if (q >> (f.man + 1)) {  // rounding carried into the next binade
        q >>= 1;
        ++qexp;
    }
    if (!(q >> f.man)) return sign | static_cast<uint32_t>(q);  // subnormal or zero
    const int field = qexp + f.man + f.bias;
    if (field >= f.emax_field) {
        bool to_inf;
        switch (r) {
            case Rnd::RINT:
            case Rnd::ROUND: to_inf = true; break;
            case Rnd::FLOOR: to_inf = x.neg; break;
            case Rnd::CEIL: to_inf = !x.neg; break;
            default: to_inf = false; break;
        }
        return sign | ((to_inf && !sat_float) ? inf_bits : max_bits);
    }
    return sign | (static_cast<uint32_t>(field) << f.man) | static_cast<uint32_t>(q & ((1ull << f.man) - 1));
}

}  // namespace kgen::cvt
