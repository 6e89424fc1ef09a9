// kgen AscendC CPU emulator -- Copy: vector copy between Unified Buffer tensors (VECIN/VECCALC/VECOUT).
//
// Documented behaviour followed (Copy, CopyRepeatParams):
//  * Copy(dst, src, mask, repeatTime, CopyRepeatParams) and the bit-mask form (mask[2]) move elements
//    as a vector instruction: each repeat handles 256 bytes in 8 data blocks of 32 bytes; the mask
//    selects the elements of a repeat; dstStride/srcStride are the data-block strides inside a repeat
//    and dstRepeatSize/srcRepeatSize the strides between repeats, in 32-byte blocks (defaults 1 and 8).
//  * isSetMask = false uses the mask register set earlier (SetVectorMask) instead of `mask`.
//  * Element types on Atlas A2: uint16_t, int16_t, half, uint32_t, int32_t, float; src and dst types equal.
//  * Values are copied bit for bit.
// Emulator checks: the shared vector-instruction checks (UB bounds, alignment, mask range) of the
// unary form apply.
//
// @api Copy CopyRepeatParams
#pragma once
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
}  // namespace kgen

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams) {
    static_assert(kgen::copy_type_v<T>, "Copy supports uint16_t, int16_t, half, uint32_t, int32_t and float on dav-2201");
    kgen::unary_mask_form<isSetMask>("Copy", dst, src, mask, repeatTime, kgen::copy_as_unary(repeatParams), [](T& d, T s) { d = s; });
}

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
                 const CopyRepeatParams& repeatParams) {
    static_assert(kgen::copy_type_v<T>, "Copy supports uint16_t, int16_t, half, uint32_t, int32_t and float on dav-2201");
    kgen::unary_mask_form<isSetMask>("Copy", dst, src, mask, repeatTime, kgen::copy_as_unary(repeatParams), [](T& d, T s) { d = s; });
}

}  // namespace AscendC
