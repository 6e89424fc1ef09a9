// kgen AscendC CPU emulator -- Duplicate: fill a vector with one scalar value.
//
// Documented rules followed (dav-2201):
//  * Count form Duplicate(dst, scalarValue, count): dst[0, count) = scalarValue.
//  * Mask/repeat forms Duplicate<T, isSetMask>(dst, scalarValue, mask | mask[], repeatTime,
//    dstBlockStride, dstRepeatStride): each repeat fills the masked elements of 8 blocks of
//    dst, blocks dstBlockStride apart, repeats dstRepeatStride blocks apart (vec_engine.h);
//    counter mode and isSetMask = false as in vec_forms.h. count/repeatTime 0 is a no-op.
//  * Element types on Atlas A2: int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
//    float; others are rejected at compile time. The scalar has the element type; any
//    arithmetic value (or half/bfloat16_t) is accepted and converted (rounded) to it.
//  * DuplicateImpl(__ubuf__ T* dst, scalar, count): the library's internal count-form entry point, which
//    some published kernels call directly with (__ubuf__ T*)tensor.GetPhyAddr(). On the emulator such a
//    "pointer" carries the UB byte offset (as for TransDataTo5HDImpl); the count elements there must lie
//    inside UB (`ub-out-of-bounds`) and start 32-byte aligned (`ub-misaligned`), as for Duplicate.
//
// @api Duplicate DuplicateImpl
#pragma once
#include <cstdint>

#include "kgen_sim/vec_forms.h"

namespace kgen {

template <class T>
inline constexpr bool dup_type_v = one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>;

template <typename T, bool isSetMask, typename M>
void duplicate_mask_form(const AscendC::LocalTensor<T>& dst, T v, M mask, uint8_t repeatTime, uint16_t blk, uint8_t rep_stride) {
    uint32_t rep = repeatTime;
    MaskSpec m = call_mask<T>("Duplicate", isSetMask, mask, &rep);
    if (rep == 0) return;
    Strided<T> D(dst, blk, rep_stride, "Duplicate");
    for_each_masked(m, rep, per_repeat<T>(), [&](uint32_t r, uint32_t i) { D.at(r, i) = v; });
    trace("Duplicate", Pipe::V, uint64_t(rep) * ONE_REP, rep, 0, 0, static_cast<uint16_t>(sizeof(T)));
}

}  // namespace kgen

namespace AscendC {

template <typename T, typename U, kgen::if_scalar<U> = 0>
inline void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count) {
    static_assert(kgen::dup_type_v<T>, "Duplicate supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and "
                                       "float only on dav-2201");
    const T v = static_cast<T>(scalarValue);
    kgen::check_count_operand("Duplicate", dst, count);
    T* d = dst.raw();
    for (int32_t i = 0; i < count; ++i) d[i] = v;
    uint64_t bytes = uint64_t(count) * sizeof(T);
    kgen::trace("Duplicate", kgen::Pipe::V, bytes, kgen::repeats_for(bytes), 0, 0, static_cast<uint16_t>(sizeof(T)));
    kgen::after_count_form();
}
template <typename T, bool isSetMask = true, typename U, kgen::if_scalar<U> = 0>
inline void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, uint64_t mask, const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    static_assert(kgen::dup_type_v<T>, "Duplicate supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and "
                                       "float only on dav-2201");
    kgen::duplicate_mask_form<T, isSetMask>(dst, static_cast<T>(scalarValue), mask, repeatTime, dstBlockStride, dstRepeatStride);
}
template <typename T, bool isSetMask = true, typename U, kgen::if_scalar<U> = 0>
inline void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    static_assert(kgen::dup_type_v<T>, "Duplicate supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and "
                                       "float only on dav-2201");
    kgen::duplicate_mask_form<T, isSetMask>(dst, static_cast<T>(scalarValue), mask, repeatTime, dstBlockStride, dstRepeatStride);
}

template <typename T>
inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, const int32_t& count) {
    const uint64_t at = reinterpret_cast<uintptr_t>(dstLocal);   // the UB byte offset (see the file's rules)
    if (count < 0) kgen::fail("bad-count", "DuplicateImpl: negative count %d", count);
    if (at > kgen::UB_SIZE) kgen::fail("ub-out-of-bounds", "DuplicateImpl: UB address %llu is past the %u-byte Unified Buffer",
                                       (unsigned long long)at, kgen::UB_SIZE);
    Duplicate(LocalTensor<T>(TPosition::VECCALC, static_cast<uint32_t>(at), static_cast<uint32_t>(count)), scalarValue, count);
}

}  // namespace AscendC
