// kgen AscendC CPU emulator -- compound vector operations: Axpy, MulAddDst, FusedMulAdd,
// MulAddRelu (and its former name FusedMulAddRelu); Duplicate lives in vec_duplicate.h.
//
// Documented rules followed (dav-2201):
//  * Axpy:        dst = src * scalarValue + dst   (forms with UnaryRepeatParams)
//    MulAddDst:   dst = src0 * src1 + dst         (forms with BinaryRepeatParams)
//    FusedMulAdd: dst = src0 * dst + src1
//    MulAddRelu:  dst = max(src0 * dst + src1, 0) (FusedMulAddRelu is its deprecated name)
//  * Each has the count form and the mask/repeat forms (mask | mask[], isSetMask); masks,
//    strides and counter mode as in vec_engine.h / vec_forms.h; count/repeatTime 0 is a no-op.
//  * Element types on Atlas A2: Axpy and MulAddDst (src, dst): (half, half), (float, float)
//    and the mixed (half -> float), where one repeat handles 64 elements (the float width) and
//    src and dst must not overlap (`operand-overlap` error). FusedMulAdd, MulAddRelu: half,
//    float. Other types are rejected at compile time (static_assert).
//  * Axpy's scalar has the source type; any arithmetic value is accepted and converted.
//
// Precision: Axpy rounds the product to the element type before the add, as Muls then Add would
// (axpy_mac). The high-level Axpy page says that API "combines Muls and Add to provide higher
// precision" than this basic Axpy, so the basic one is no single-rounding multiply-add; and
// NPUKernelBench's ForeachAddList / ForeachAddcdivList (half Axpy with a scalar of 3, 5) match
// PyTorch's x + y * alpha in half only so. With a half source and a float destination the product
// is exact in float, so the two agree there. MulAddDst, FusedMulAdd, MulAddRelu (the emulator's
// choice, nothing documented): fused -- computed in float with a single rounding (std::fma), then
// rounded to half for a half destination.
//
// @api Axpy MulAddDst FusedMulAdd MulAddRelu FusedMulAddRelu
#pragma once
#include <cmath>
#include <cstdint>

#include "kgen_sim/vec_binary.h"
#include "kgen_sim/vec_duplicate.h"
#include "kgen_sim/vec_forms.h"

namespace kgen {

/// (dst T, src U) pairs documented for Axpy / MulAddDst on dav-2201.
template <class T, class U>
inline constexpr bool mac_pair_v = (std::is_same_v<T, U> && one_of_v<T, half, float>) ||
                                   (std::is_same_v<T, float> && std::is_same_v<U, half>);

/// acc + a * b with one rounding in float, then converted to T.
template <class T, class U> inline T fused_mac(T acc, U a, U b) {
    return T(std::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(acc)));
}

/// acc + a * b as Axpy computes it: the product rounded to the element type, then the sum (the precision
/// rule above; with a half source and a float destination the product is exact in float). Two statements,
/// so the compiler cannot contract them into one fma.
template <class T, class U> inline T axpy_mac(T acc, U a, U b) {
    const T product = T(static_cast<float>(a) * static_cast<float>(b));
    const float sum = static_cast<float>(product) + static_cast<float>(acc);
    return T(sum);
}

/// The documented no-overlap rule of the mixed half -> float forms, for the count form.
template <class T, class U>
inline void check_mixed_count_overlap(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                                      int32_t count) {
    if constexpr (!std::is_same_v<T, U>) {
        if (count <= 0) return;
        uintptr_t d = reinterpret_cast<uintptr_t>(dst.raw()), s = reinterpret_cast<uintptr_t>(src.raw());
        check_no_overlap(api, d, d + uint64_t(count) * sizeof(T), s, s + uint64_t(count) * sizeof(U),
                         "with a half source and a float destination the operands must not overlap");
    }
}
/// The same rule for a mask/repeat form (compares the address ranges the strides can reach).
template <class T, class U>
inline void check_mixed_repeat_overlap(const char* api, const AscendC::LocalTensor<T>& dst, uint32_t dblk, uint32_t drep,
                                       const AscendC::LocalTensor<U>& src, uint32_t sblk, uint32_t srep, uint32_t repeat) {
    if constexpr (!std::is_same_v<T, U>) {
        if (repeat == 0) return;
        constexpr uint32_t per = per_repeat<T, U>();
        uintptr_t d0, d1, s0, s1;
        repeat_extent(dst.raw(), repeat, per, dblk, drep, &d0, &d1);
        repeat_extent(src.raw(), repeat, per, sblk, srep, &s0, &s1);
        check_no_overlap(api, d0, d1, s0, s1, "with a half source and a float destination the operands must not overlap");
    }
}

template <typename T, typename U, bool isSetMask = true, typename S, typename M>
inline void axpy_mask_form(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, const S& scalarValue, M mask,
                           uint8_t repeatTime, const AscendC::UnaryRepeatParams& p) {
    static_assert(mac_pair_v<T, U>, "Axpy supports (dst, src) = (half, half), (float, float), (float, half) only");
    const U v = static_cast<U>(scalarValue);
    uint32_t rep = repeatTime;
    MaskSpec m = call_mask<T, U>("Axpy", isSetMask, mask, &rep);
    check_mixed_repeat_overlap("Axpy", dst, p.dstBlkStride, p.dstRepStride, src, p.srcBlkStride, p.srcRepStride, rep);
    unary_repeat("Axpy", dst, src, m, rep, p, [v](T& d, U s) { d = axpy_mac(d, s, v); });
}
template <typename T, typename U, bool isSetMask = true, typename M>
inline void muladddst_mask_form(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src0, const AscendC::LocalTensor<U>& src1, M mask,
                                uint8_t repeatTime, const AscendC::BinaryRepeatParams& p) {
    static_assert(mac_pair_v<T, U>, "MulAddDst supports (dst, src) = (half, half), (float, float), (float, half) only");
    uint32_t rep = repeatTime;
    MaskSpec m = call_mask<T, U, U>("MulAddDst", isSetMask, mask, &rep);
    check_mixed_repeat_overlap("MulAddDst", dst, p.dstBlkStride, p.dstRepStride, src0, p.src0BlkStride, p.src0RepStride, rep);
    check_mixed_repeat_overlap("MulAddDst", dst, p.dstBlkStride, p.dstRepStride, src1, p.src1BlkStride, p.src1RepStride, rep);
    binary_repeat("MulAddDst", dst, src0, src1, m, rep, p, [](T& d, U a, U b) { d = fused_mac(d, a, b); });
}
}  // namespace kgen

namespace AscendC {

// ---- Axpy: dst = src * scalar + dst ------------------------------------------------------------
template <typename T, typename U, typename S, kgen::if_scalar<S> = 0>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue, const int32_t& count) {
    static_assert(kgen::mac_pair_v<T, U>, "Axpy supports (dst, src) = (half, half), (float, float), (float, half) only");
    const U v = static_cast<U>(scalarValue);
    kgen::check_mixed_count_overlap("Axpy", dst, src, count);
    kgen::unary_count("Axpy", dst, src, count, [v](T& d, U s) { d = kgen::axpy_mac(d, s, v); });
    kgen::after_count_form();
}
template <typename T, typename U, bool isSetMask = true, typename S, kgen::if_scalar<S> = 0>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue, uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    kgen::axpy_mask_form<T, U, isSetMask>(dst, src, scalarValue, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true, typename S, kgen::if_scalar<S> = 0>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue, const uint64_t mask[],
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    kgen::axpy_mask_form<T, U, isSetMask>(dst, src, scalarValue, mask, repeatTime, repeatParams);
}

// ---- MulAddDst: dst = src0 * src1 + dst ------------------------------------------------------------
template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count) {
    static_assert(kgen::mac_pair_v<T, U>, "MulAddDst supports (dst, src) = (half, half), (float, float), (float, half) only");
    kgen::check_mixed_count_overlap("MulAddDst", dst, src0, count);
    kgen::check_mixed_count_overlap("MulAddDst", dst, src1, count);
    kgen::binary_count("MulAddDst", dst, src0, src1, count, [](T& d, U a, U b) { d = kgen::fused_mac(d, a, b); });
    kgen::after_count_form();
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask,
                      const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    kgen::muladddst_mask_form<T, U, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    kgen::muladddst_mask_form<T, U, isSetMask>(dst, src0, src1, mask, repeatTime, repeatParams);
}

}  // namespace AscendC

namespace kgen {
template <class T> inline T fma_dst(T d, T a, T b) {  // a * d + b
    static_assert(one_of_v<T, half, float>, "FusedMulAdd / MulAddRelu support half and float only on dav-2201");
    return fused_mac(b, a, d);
}
template <class T> inline T fma_dst_relu(T d, T a, T b) { return vrelu(fma_dst(d, a, b)); }
}  // namespace kgen

/// Declares the count and mask/repeat forms of an op computing dst from (dst, src0, src1).
#define KGEN_DST_TERNARY_API(NAME, FN)                                                                                \
    template <typename T>                                                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                     const int32_t& count) {                                                                          \
        kgen::binary_count(#NAME, dst, src0, src1, count, [](T& d, T a, T b) { d = FN(d, a, b); });                   \
        kgen::after_count_form();                                                                                     \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                     uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {               \
        kgen::binary_mask_form<isSetMask>(#NAME, dst, src0, src1, mask, repeatTime, repeatParams,                     \
                                          [](T& d, T a, T b) { d = FN(d, a, b); });                                   \
    }                                                                                                                 \
    template <typename T, bool isSetMask = true>                                                                      \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,              \
                     const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {       \
        kgen::binary_mask_form<isSetMask>(#NAME, dst, src0, src1, mask, repeatTime, repeatParams,                     \
                                          [](T& d, T a, T b) { d = FN(d, a, b); });                                   \
    }

namespace AscendC {
KGEN_DST_TERNARY_API(FusedMulAdd, kgen::fma_dst)
KGEN_DST_TERNARY_API(MulAddRelu, kgen::fma_dst_relu)
KGEN_DST_TERNARY_API(FusedMulAddRelu, kgen::fma_dst_relu)
}  // namespace AscendC
