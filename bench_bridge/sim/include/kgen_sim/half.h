// kgen AscendC CPU emulator -- 16-bit floating point types.
//
// Documented rules followed:
//  * `half` is IEEE 754 binary16 (1 sign, 5 exponent, 10 fraction bits, bias 15),
//    with subnormals, infinities and NaN.
//  * `bfloat16_t` is the upper 16 bits of an IEEE binary32 (1, 8, 7).
//  * Conversion from float rounds to nearest, ties to even (IEEE default), overflow
//    goes to +-inf, NaN stays NaN (quiet).
//  * One arithmetic operation on two 16-bit values is computed in float and rounded
//    once: float carries >= 2p+2 bits for p = 11 (half) and p = 8 (bf16), so this
//    equals the correctly rounded 16-bit result for + - * / and sqrt.
//  * Mixed expressions follow C's usual arithmetic conversions with the 16-bit type
//    as the narrowest floating type: half (op) float -> float, half (op) int -> half.
#pragma once
#include <vector>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace kgen {

// constexpr so that `constexpr half h = 1.0;` works, as with the NPU compiler's native half
constexpr uint32_t f32_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float bits_f32(uint32_t u) { return __builtin_bit_cast(float, u); }

/// float -> binary16 bits, round to nearest even.
constexpr uint16_t f32_to_f16_bits(float f) {
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFF) {  // inf or NaN
        return static_cast<uint16_t>(sign | 0x7C00u | (man ? (0x200u | (man >> 13)) : 0u));
    }
    int32_t e = static_cast<int32_t>(exp) - 127 + 15;
    if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow -> inf
    if (e <= 0) {  // subnormal half or zero
        if (e < -10) return static_cast<uint16_t>(sign);  // rounds to zero (below half of min subnormal)
        man |= 0x800000u;  // implicit bit
        uint32_t shift = static_cast<uint32_t>(14 - e);  // 24-bit mantissa -> subnormal position
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = (static_cast<uint32_t>(e) << 10) | (man >> 13);
    uint32_t rem = man & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // carry may roll into exponent/inf: correct
    return static_cast<uint16_t>(sign | h);
}

/// binary16 bits -> float (exact).
constexpr float f16_bits_to_f32(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0) {
        if (man == 0) return bits_f32(sign);
        // subnormal: value = man * 2^-24
        float v = static_cast<float>(man) * 5.9604644775390625e-08f;
        return sign ? -v : v;
    }
    if (exp == 0x1F) return bits_f32(sign | 0x7F800000u | (man << 13));
    return bits_f32(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

/// float -> bfloat16 bits, round to nearest even.
constexpr uint16_t f32_to_bf16_bits(float f) {
    uint32_t x = f32_bits(f);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu)) return static_cast<uint16_t>((x >> 16) | 0x40u);
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7FFFu + lsb;
    return static_cast<uint16_t>(x >> 16);
}
constexpr float bf16_bits_to_f32(uint16_t b) { return bits_f32(static_cast<uint32_t>(b) << 16); }

/// binary16 bits -> float for every bit pattern, computed once (f16_bits_to_f32): the cube unit's operand
/// unpacking converts through it.
inline const float* f16_to_f32_table() {
    static const std::vector<float> table = [] {
        std::vector<float> t(65536);
        for (uint32_t b = 0; b < 65536; ++b) t[b] = f16_bits_to_f32(static_cast<uint16_t>(b));
        return t;
    }();
    return table.data();
}

struct f16_tag {};
struct bf16_tag {};

template <class Tag> struct Float16Traits;
template <> struct Float16Traits<f16_tag> {
    static constexpr uint16_t from(float f) { return f32_to_f16_bits(f); }
    static constexpr float to(uint16_t b) { return f16_bits_to_f32(b); }
};
template <> struct Float16Traits<bf16_tag> {
    static constexpr uint16_t from(float f) { return f32_to_bf16_bits(f); }
    static constexpr float to(uint16_t b) { return bf16_bits_to_f32(b); }
};

/// A 16-bit float stored as bits; every operation rounds once to the 16-bit format.
template <class Tag>
struct Float16 {
    uint16_t bits;
    using Tr = Float16Traits<Tag>;

    Float16() = default;
    template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
    constexpr Float16(U v) : bits(Tr::from(static_cast<float>(v))) {}
    /// half <-> bfloat16_t: explicit, through the exact float value, rounded once to the target
    /// (the NPU compiler converts between its 16-bit float types; `bfloat16_t(h)` is how kernels write it).
    template <class Other, std::enable_if_t<!std::is_same_v<Other, Tag>, int> = 0>
    constexpr explicit Float16(Float16<Other> v) : bits(Tr::from(v.to_float())) {}
    static constexpr Float16 from_bits(uint16_t b) { Float16 h{}; h.bits = b; return h; }

    constexpr operator float() const { return Tr::to(bits); }
    constexpr float to_float() const { return Tr::to(bits); }

    Float16& operator+=(Float16 o) { return *this = Float16(to_float() + o.to_float()); }
    Float16& operator-=(Float16 o) { return *this = Float16(to_float() - o.to_float()); }
    Float16& operator*=(Float16 o) { return *this = Float16(to_float() * o.to_float()); }
    Float16& operator/=(Float16 o) { return *this = Float16(to_float() / o.to_float()); }
    Float16 operator-() const { return from_bits(static_cast<uint16_t>(bits ^ 0x8000u)); }
    Float16 operator+() const { return *this; }
    Float16& operator++() { return *this += Float16(1.0f); }
    Float16& operator--() { return *this -= Float16(1.0f); }
};

// Result type of (Float16 op U): the wider floating type, or Float16 for integers.
template <class H, class U, class = void> struct MixT { using type = H; };
template <class H, class U> struct MixT<H, U, std::enable_if_t<std::is_floating_point_v<U>>> { using type = U; };

#define KGEN_F16_BINOP(OP)                                                                    \
    template <class Tag> Float16<Tag> operator OP(Float16<Tag> a, Float16<Tag> b) {           \
        return Float16<Tag>(a.to_float() OP b.to_float());                                     \
    }                                                                                          \
    template <class Tag, class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>          \
    typename MixT<Float16<Tag>, U>::type operator OP(Float16<Tag> a, U b) {                    \
        using R = typename MixT<Float16<Tag>, U>::type;                                        \
        return R(static_cast<R>(a) OP static_cast<R>(b));                                      \
    }                                                                                          \
    template <class Tag, class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>          \
    typename MixT<Float16<Tag>, U>::type operator OP(U a, Float16<Tag> b) {                    \
        using R = typename MixT<Float16<Tag>, U>::type;                                        \
        return R(static_cast<R>(a) OP static_cast<R>(b));                                      \
    }
KGEN_F16_BINOP(+)
KGEN_F16_BINOP(-)
KGEN_F16_BINOP(*)
KGEN_F16_BINOP(/)
#undef KGEN_F16_BINOP

#define KGEN_F16_CMP(OP)                                                                       \
    template <class Tag> bool operator OP(Float16<Tag> a, Float16<Tag> b) {                    \
        return a.to_float() OP b.to_float();                                                   \
    }                                                                                          \
    template <class Tag, class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>          \
    bool operator OP(Float16<Tag> a, U b) { return static_cast<double>(a.to_float()) OP static_cast<double>(b); } \
    template <class Tag, class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>          \
    bool operator OP(U a, Float16<Tag> b) { return static_cast<double>(a) OP static_cast<double>(b.to_float()); }
KGEN_F16_CMP(==)
KGEN_F16_CMP(!=)
KGEN_F16_CMP(<)
KGEN_F16_CMP(<=)
KGEN_F16_CMP(>)
KGEN_F16_CMP(>=)
#undef KGEN_F16_CMP

}  // namespace kgen

using half = kgen::Float16<kgen::f16_tag>;
using bfloat16_t = kgen::Float16<kgen::bf16_tag>;

namespace kgen {
template <class T> struct is_f16 : std::false_type {};
template <> struct is_f16<half> : std::true_type {};
template <> struct is_f16<bfloat16_t> : std::true_type {};
/// True for every type the vector unit treats as floating point.
template <class T> inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_f16<T>::value;
/// Compute type: 16-bit floats are widened to float for a single correctly rounded step.
template <class T> using compute_t = std::conditional_t<is_f16<T>::value, float, T>;
}  // namespace kgen
