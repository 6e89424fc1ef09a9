// kgen AscendC CPU emulator -- high-level math with two operands: Power, Fmod, Xor, ClampMax,
// ClampMin, Axpy (high-level).
//
// Documented rules followed (dav-2201 pages of each API):
//  * Power<T, isReuseSource = false, config = defaultPowerConfig>: three kinds, each with the
//    forms (..., sharedTmpBuffer, calCount), (..., calCount), (..., sharedTmpBuffer), (...):
//      tensor ^ tensor  Power(dst, base, exp ...), tensor ^ scalar Power(dst, base, T exp ...),
//      scalar ^ tensor  Power(dst, T base, exp ...).
//    T: half, float, int32_t on Atlas A2. PowerConfig (algo INTRINSIC | DOUBLE_FLOAT_TECH) is
//    accepted; its algorithm choice only exists on newer NPUs.
//  * Fmod<T>(dst, a, b[, sharedTmpBuffer][, calCount]) = a - Trunc(a / b) * b (sign of a): half, float.
//  * Xor<T>(dst, a, b[, sharedTmpBuffer][, calCount]): bitwise exclusive or, int16_t, uint16_t.
//  * ClampMax<T>(dst, src[, sharedTmpBuffer], scalar, calCount) = min(src, scalar);
//    ClampMin = max(src, scalar); half, float. The temporary buffer comes before the scalar.
//  * Axpy<T, U>(dst, src, U scalar, sharedTmpBuffer, calCount): dst = dst + src * scalar, computed
//    as Muls then Add (better precision than the basic Axpy); (T, U) = (half, half), (float,
//    float), (float, half). The temporary-buffer size follows U.
//  * No source may overlap the destination (`operand-overlap`); temporary-buffer rules as in
//    adv/adv_common.h, sizes in adv/tmp_rules.h.
//
// Precision: Fmod, Xor, ClampMax/Min: exact. Power (float/half): the emulator returns the IEEE pow
// rounded to T; the NPU computes exp(exp * ln(base)) in float, a few float ulp away for moderate
// results (more for large |exp * ln base|). Power int32_t: exact integer power (wrapping); for a
// negative exponent the emulator returns the truncated quotient 1 / base^-e (1, -1 or 0) -- the
// NPU's result there is not documented. Axpy: the product is rounded to float (Muls), then the sum.
//
// @api Power PowerConfig PowerAlgo Fmod Xor ClampMax ClampMin Axpy
#pragma once
#include <cmath>
#include <cstdint>

#include "kgen_sim/adv/adv_common.h"

namespace AscendC {
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};
}  // namespace AscendC

namespace kgen {
namespace adv {

template <class T> inline constexpr bool pow_type_v = one_of_v<T, half, float, int32_t>;

inline int32_t ipow(int32_t b, int32_t e) {
    if (e < 0) return b == 1 ? 1 : (b == -1 ? ((e & 1) ? -1 : 1) : 0);
    uint32_t r = 1, base = static_cast<uint32_t>(b);
    for (uint32_t k = static_cast<uint32_t>(e); k; k >>= 1) {
        if (k & 1) r *= base;
        base *= base;
    }
    return static_cast<int32_t>(r);
}
template <class T> inline T tpow(T b, T e) {
    if constexpr (std::is_same_v<T, int32_t>) return ipow(b, e);
    else return T(static_cast<float>(std::pow(static_cast<double>(static_cast<float>(b)), static_cast<double>(static_cast<float>(e)))));
}

template <class T>
inline Tmp power_tmp(const AscendC::LocalTensor<uint8_t>* tmp, bool tt, uint32_t n) {
    constexpr bool isInt = std::is_same_v<T, int32_t>;
    return Tmp{tmp, power_min_tmp(isInt, sizeof(T), tt), power_max_tmp(isInt, sizeof(T), tt, n)};
}

/// base and exp: a tensor (non-null) or a scalar.
template <class T>
inline void power(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* base, T sbase,
                  const AscendC::LocalTensor<T>* ex, T sexp, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n) {
    static_assert(pow_type_v<T>, "Power supports half, float and int32_t only on dav-2201");
    const char* api = "Power";
    bool tt = base && ex;
    Tmp t = power_tmp<T>(tmp, tt, n);
    if (n == 0) return;
    operand(api, dst, n);
    if (base) { operand(api, *base, n); no_overlap(api, dst, n, *base, n, "the base and destination tensors"); }
    if (ex) { operand(api, *ex, n); no_overlap(api, dst, n, *ex, n, "the exponent and destination tensors"); }
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)},
                       {base ? lo_of(*base) : 0, base ? hi_of(*base, n) : 0},
                       {ex ? lo_of(*ex) : 0, ex ? hi_of(*ex, n) : 0}});
    T* d = dst.raw();
    for (uint32_t i = 0; i < n; ++i) d[i] = tpow<T>(base ? base->raw()[i] : sbase, ex ? ex->raw()[i] : sexp);
    clobber_tmp(t);
    trace_call(api, uint64_t(n) * sizeof(T), power_nodes(std::is_same_v<T, int32_t>, sizeof(T), tt) + 1);
}

template <class T> inline T tfmod(T a, T b) {
    return T(static_cast<float>(std::fmod(static_cast<double>(static_cast<float>(a)), static_cast<double>(static_cast<float>(b)))));
}

template <class T, bool reuse>
inline void fmod_call(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
                      const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n) {
    static_assert(hf_v<T>, "Fmod supports half and float only on dav-2201");
    Tmp t{tmp, min_tmp(kFmod, sizeof(T), reuse), max_tmp(kFmod, sizeof(T), reuse, n)};
    bool zero = false;
    binary_elementwise("Fmod", dst, a, b, n, t, kFmod.of(sizeof(T), reuse) + 2, [&](T x, T y) {
        if (static_cast<float>(y) == 0.0f) zero = true;
        return tfmod(x, y);
    });
    domain_note("Fmod", zero, "a zero divisor");
}

template <class T, bool reuse>
inline void xor_call(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
                     const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n) {
    static_assert(one_of_v<T, int16_t, uint16_t>, "Xor supports int16_t and uint16_t only on dav-2201");
    Tmp t{tmp, min_tmp(kXor, sizeof(T), reuse), max_tmp(kXor, sizeof(T), reuse, n)};
    binary_elementwise("Xor", dst, a, b, n, t, 4, [](T x, T y) { return static_cast<T>(x ^ y); });
}

template <class T>
inline void clamp_call(const char* api, bool is_max, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LocalTensor<uint8_t>* tmp, T scalar, uint32_t n) {
    static_assert(hf_v<T>, "ClampMax / ClampMin support half and float only on dav-2201");
    Tmp t{tmp, clamp_min_tmp(sizeof(T)), clamp_max_tmp(sizeof(T), n)};
    float s = static_cast<float>(scalar);
    unary_elementwise(api, dst, src, n, t, false, 3, [&](T x) {
        float v = static_cast<float>(x);
        return is_max ? (v > s ? T(s) : x) : (v < s ? T(s) : x);
    });
}

template <class T, class U>
inline void axpy_call(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, U scalar,
                      const AscendC::LocalTensor<uint8_t>& tmp, uint32_t n) {
    static_assert((std::is_same_v<T, U> && hf_v<T>) || (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "Axpy (high-level) supports (half, half), (float, float) and (float dst, half src) on dav-2201");
    const char* api = "Axpy";
    Tmp t{&tmp, min_tmp(kAxpy, sizeof(U), false), max_tmp(kAxpy, sizeof(U), false, n)};
    if (n == 0) return;
    operand(api, dst, n);
    operand(api, src, n);
    no_overlap(api, dst, n, src, n, "the source and destination tensors");
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}});
    float s = static_cast<float>(scalar);
    for (uint32_t i = 0; i < n; ++i) {
        float prod = static_cast<float>(src.raw()[i]) * s;  // Muls, in float
        dst.raw()[i] = T(static_cast<float>(dst.raw()[i]) + prod);
    }
    clobber_tmp(t);
    trace_call(api, uint64_t(n) * sizeof(T), 3);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

// ---- Power ------------------------------------------------------------------------------------
#define KGEN_POWER_TPL template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                 const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 uint32_t calCount) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), &sharedTmpBuffer, calCount);
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                 const LocalTensor<T>& src1Tensor, uint32_t calCount) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), nullptr, calCount);
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                 const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), &sharedTmpBuffer, src0Tensor.GetSize());
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                 const LocalTensor<T>& src1Tensor) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), &src1Tensor, T(), nullptr, src0Tensor.GetSize());
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, &sharedTmpBuffer, calCount);
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                                 uint32_t calCount) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, nullptr, calCount);
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, &sharedTmpBuffer, src0Tensor.GetSize());
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar) {
    kgen::adv::power<T>(dstTensor, &src0Tensor, T(), nullptr, src1Scalar, nullptr, src0Tensor.GetSize());
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
    kgen::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), &sharedTmpBuffer, calCount);
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                                 uint32_t calCount) {
    kgen::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), nullptr, calCount);
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer) {
    kgen::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), &sharedTmpBuffer, src1Tensor.GetSize());
}
KGEN_POWER_TPL inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor) {
    kgen::adv::power<T>(dstTensor, nullptr, src0Scalar, &src1Tensor, T(), nullptr, src1Tensor.GetSize());
}
#undef KGEN_POWER_TPL

// ---- Fmod, Xor: two tensors, four forms ------------------------------------------------------------
#define KGEN_ADV_BIN4(NAME, CALL)                                                                                   \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                        \
        kgen::adv::CALL<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount);           \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, \
                     const uint32_t calCount) {                                                                     \
        kgen::adv::CALL<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);                    \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor, \
                     const LocalTensor<uint8_t>& sharedTmpBuffer) {                                                 \
        kgen::adv::CALL<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize()); \
    }                                                                                                               \
    template <typename T, bool isReuseSource = false>                                                               \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) { \
        kgen::adv::CALL<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize());        \
    }
KGEN_ADV_BIN4(Fmod, fmod_call)
KGEN_ADV_BIN4(Xor, xor_call)
#undef KGEN_ADV_BIN4

// ---- ClampMax / ClampMin ------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    kgen::adv::clamp_call<T>("ClampMax", true, dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, const uint32_t calCount) {
    kgen::adv::clamp_call<T>("ClampMax", true, dstTensor, srcTensor, nullptr, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    kgen::adv::clamp_call<T>("ClampMin", false, dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, const uint32_t calCount) {
    kgen::adv::clamp_call<T>("ClampMin", false, dstTensor, srcTensor, nullptr, scalar, calCount);
}

// ---- Axpy (high-level): the form with a temporary buffer ------------------------------------------
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    kgen::adv::axpy_call<T, U>(dstTensor, srcTensor, scalarValue, sharedTmpBuffer, calCount);
}

}  // namespace AscendC
