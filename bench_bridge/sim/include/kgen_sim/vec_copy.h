// kgen AscendC CPU emulator -- Copy: vector copy between Unified Buffer tensors (VECIN/VECCALC/VECOUT).
//
// Documented behaviour followed (Copy, CopyRepeatParams):
//  * Copy(dst, src, mask, repeatTime, CopyRepeatParams) and the bit-mask form (mask[2]) move elements
//    as a vector instruction: each repeat handles 256 bytes in 8 data blocks of 32 bytes; the mask
//    selects the elements of a repeat; dstStride/srcStride are the data-block strides inside a repeat
//    and dstRepeatSize/srcRepeatSize the strides between repeats, in 32-byte blocks (defaults 1 and 8).
//  * isSetMask = false uses the mask register set earlier (SetVectorMask) instead of `mask`.
//  * Counter mode (SetMaskCount) differs from the general counter mode (Copy page, constraints): the mask (the
//    argument, or the register when isSetMask = false) is the number of elements of *each* repeat and
//    repeatTime takes effect. A repeat moves N = ceil(mask * sizeof(T) / 32) data blocks (the last one only up
//    to the mask) at the data-block strides; the repeats start at the repeat strides. repeatTime 0 or a mask
//    of 0 moves nothing.
//  * Element types on Atlas A2: uint16_t, int16_t, half, uint32_t, int32_t, float; src and dst types equal.
//  * Values are copied bit for bit.
// Emulator checks: the shared vector-instruction checks (UB bounds, alignment, mask range) of the
// unary form apply.
//
// @api Copy CopyRepeatParams
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kgen_sim/vec_forms.h"

namespace AscendC {

struct CopyRepeatParams {
    uint16_t dstStride = DEFAULT_BLK_STRIDE;
    uint16_t srcStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn) {}
};

}  // namespace AscendC

namespace kgen {
template <class T>
inline constexpr bool copy_type_v = one_of_v<T, uint16_t, int16_t, half, uint32_t, int32_t, float>;

inline AscendC::UnaryRepeatParams copy_as_unary(const AscendC::CopyRepeatParams& p) {
    return AscendC::UnaryRepeatParams(p.dstStride, p.srcStride, p.dstRepeatSize, p.srcRepeatSize);
}

/// Copy in counter mode: `count` elements per repeat, `repeat` repeats (see the top of this file).
template <typename T>
inline void copy_counter(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint64_t count,
                         uint32_t repeat, const AscendC::CopyRepeatParams& p) {
    if (repeat == 0 || count == 0) return;
    Strided<T> D(dst, p.dstStride, p.dstRepeatSize, api);
    Strided<const T> S(src, p.srcStride, p.srcRepeatSize, api);
    // a count past UB addresses memory past every tensor: the first such access is the error
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(count, UB_SIZE / sizeof(T) + 1));
    MaskSpec m;
    m.count = n;
    for_each_masked(m, repeat, n, [&](uint32_t r, uint32_t i) { D.at(r, i) = S.at(r, i); });
    const uint64_t blocks = (uint64_t(n) * sizeof(T) + ONE_BLK - 1) / ONE_BLK;
    trace(api, Pipe::V, uint64_t(repeat) * blocks * ONE_BLK, repeat, 0, 0, static_cast<uint16_t>(sizeof(T)));
}
}  // namespace kgen

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams) {
    static_assert(kgen::copy_type_v<T>, "Copy supports uint16_t, int16_t, half, uint32_t, int32_t and float on dav-2201");
    if (kgen::core().mask_counter_mode)
        return kgen::copy_counter("Copy", dst, src, isSetMask ? mask : kgen::core().mask[0], repeatTime, repeatParams);
    kgen::unary_mask_form<isSetMask>("Copy", dst, src, mask, repeatTime, kgen::copy_as_unary(repeatParams), [](T& d, T s) { d = s; });
}

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams) {
    static_assert(kgen::copy_type_v<T>, "Copy supports uint16_t, int16_t, half, uint32_t, int32_t and float on dav-2201");
    if (kgen::core().mask_counter_mode) {
        if (isSetMask && !mask) kgen::fail("bad-mask", "Copy: null bit mask");
        return kgen::copy_counter("Copy", dst, src, isSetMask ? mask[0] : kgen::core().mask[0], repeatTime, repeatParams);
    }
    kgen::unary_mask_form<isSetMask>("Copy", dst, src, mask, repeatTime, kgen::copy_as_unary(repeatParams), [](T& d, T s) { d = s; });
}

}  // namespace AscendC
