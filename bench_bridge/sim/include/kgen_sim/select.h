// kgen AscendC CPU emulator -- Select: per-element choice between two sources by a bit mask.
//
// Documented rules followed (dav-2201, Atlas A2):
//  * dst[k] = selMask bit set ? src0[k] : src1[k] (or the scalar src1). selMask bits are read
//    little-endian: bit k is bit (k % 8) of byte k / 8 of the selMask tensor, whatever its
//    element type U (uint8_t/uint16_t/uint32_t/uint64_t). T is half or float.
//  * SELMODE::VSEL_CMPMASK_SPR (mode 0): two tensors; only the first 256 / sizeof(T) bits of
//    selMask count and every repeat reuses them (element i of each repeat uses bit i). The
//    mask is loaded into the CMPMASK register (its 16 bytes are replaced, as on hardware).
//  * SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1): src0 tensor and a scalar src1; selMask bits are
//    consumed continuously (repeat r uses bits r * 256/sizeof(T) ...).
//  * SELMODE::VSEL_TENSOR_TENSOR_MODE (mode 2): two tensors; selMask consumed continuously.
//  * Count form Select(dst, selMask, src0, src1, selMode, count): the first `count` elements, any
//    count. Mask/repeat forms take a normal or bit mask and BinaryRepeatParams for dst/src0/src1;
//    masked-off dst elements keep their values. isSetMask is a reserved parameter: the mask
//    argument is always used.
//  * Forms without a mask use the vector mask register (SetVectorMask) and the CMPMASK register
//    (SetCmpMask): Select<T, mode>(dst, src0, src1, repeat, params) for mode 0 (register = the
//    select bits) and mode 2 (register = the UB address of selMask, as the documented example
//    stores it; the emulator accepts a UB byte offset or a pointer into this core's UB);
//    Select(dst, selMask, src0, repeat, params) for mode 1 (register = the scalar in its first
//    sizeof(T) bytes).
//  * A mode that does not fit the call (scalar src1 with mode 0/2, tensor src1 with mode 1) is
//    reported (`select-bad-mode`). Operands need 32-byte aligned UB addresses.
//  * Modes 1 and 2 reserve 8 KB of UB on hardware for a temporary; not modelled.
//
// @api Select SELMODE
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kgen_sim/repeat_plan.h"
#include "kgen_sim/vec_engine.h"

namespace kgen {

template <typename T> constexpr bool sel_type_ok = std::is_same_v<T, half> || std::is_same_v<T, float>;
template <typename U>
constexpr bool sel_mask_type_ok = std::is_integral_v<U> && !std::is_same_v<U, bool>;
// The docs list uint8/16/32/64 for selMask; only its bits are read, so the signed integer types
// (an int8_t Compare result, as NPUKernelBench golden answers pass it) are accepted too.

inline const char* selmode_name(AscendC::SELMODE m) {
    switch (m) {
        case AscendC::SELMODE::VSEL_CMPMASK_SPR: return "VSEL_CMPMASK_SPR";
        case AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE: return "VSEL_TENSOR_SCALAR_MODE";
        case AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE: return "VSEL_TENSOR_TENSOR_MODE";
    }
    return "invalid SELMODE";
}

/// Where the select bits of one call come from.
struct SelBits {
    const uint8_t* base = nullptr;
    bool reuse = false;     // mode 0: every repeat uses bits [0, per)
    uint64_t limit = 0;     // bits available for reading (bounds check)
    const char* api = "Select";
    bool at(uint32_t per, uint32_t r, uint32_t i) const {
        uint64_t k = reuse ? i : uint64_t(r) * per + i;
        if (k >= limit)
            fail("ub-out-of-bounds", "%s: element %u of repeat %u needs selMask bit %llu, past the %llu bits available",
                 api, i, r, (unsigned long long)k, (unsigned long long)limit);
        return get_bit(base, k);
    }
};

template <typename U>
inline SelBits sel_from_tensor(const AscendC::LocalTensor<U>& sel, bool reuse, uint32_t per) {
    sel.check_aligned("Select");
    SelBits s;
    s.base = reinterpret_cast<const uint8_t*>(sel.raw());
    s.reuse = reuse;
    s.limit = uint64_t(sel.GetSize()) * sizeof(U) * 8;
    if (reuse) {
        if (s.limit > per) s.limit = per;
        uint64_t n = std::min<uint64_t>(16, uint64_t(sel.GetSize()) * sizeof(U));
        std::memset(cmp_register().bytes, 0, 16);
        std::memcpy(cmp_register().bytes, s.base, n);  // mode 0 loads selMask into CMPMASK
    }
    return s;
}

template <typename T>
inline void load_scalar_register(T v) {
    for (uint32_t o = 0; o + sizeof(T) <= 16; o += sizeof(T)) std::memcpy(cmp_register().bytes + o, &v, sizeof(T));
}

/// Mask/repeat engine: dst/src0/src1 strided by p, select bits from `bits`, src1 tensor or scalar.
template <typename T, typename Src1>
inline void select_repeat(const RepeatPlan& plan, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                          const Src1& src1, const SelBits& bits, const AscendC::BinaryRepeatParams& p) {
    if (plan.repeat == 0) return;
    constexpr uint32_t per = per_repeat<T>();
    Strided<T> D(dst, p.dstBlkStride, p.dstRepStride, "Select");
    Strided<const T> A(src0, p.src0BlkStride, p.src0RepStride, "Select");
    if constexpr (std::is_same_v<Src1, AscendC::LocalTensor<T>>) {
        Strided<const T> B(src1, p.src1BlkStride, p.src1RepStride, "Select");
        walk(plan, per, [&](uint32_t r, uint32_t i) { D.at(r, i) = bits.at(per, r, i) ? A.at(r, i) : B.at(r, i); });
    } else {
        const T s = src1;
        walk(plan, per, [&](uint32_t r, uint32_t i) { D.at(r, i) = bits.at(per, r, i) ? A.at(r, i) : s; });
    }
    trace("Select", Pipe::V, uint64_t(plan.repeat) * ONE_REP, plan.repeat);
}

/// Count form as one counter-mode instruction over `count` elements with default strides.
template <typename T, typename Src1>
inline void select_count(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0, const Src1& src1,
                         const SelBits& bits, uint32_t count) {
    check_count_operand("Select", dst, count);
    check_count_operand("Select", src0, count);
    if constexpr (std::is_same_v<Src1, AscendC::LocalTensor<T>>) check_count_operand("Select", src1, count);
    if (count == 0) return;
    constexpr uint32_t per = per_repeat<T>();
    RepeatPlan plan;
    plan.mask.count = per;
    plan.repeat = (count + per - 1) / per;
    plan.limit = count;
    select_repeat(plan, dst, src0, src1, bits, AscendC::BinaryRepeatParams());
}

inline void select_mode_check(AscendC::SELMODE m, bool scalar_src1) {
    bool scalar_mode = m == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE;
    bool known = static_cast<unsigned>(m) <= 2;
    if (!known || scalar_mode != scalar_src1)
        fail("select-bad-mode", "Select: SELMODE::%s does not fit a call whose src1 is a %s (scalar src1 needs "
             "VSEL_TENSOR_SCALAR_MODE; tensor src1 needs VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE)",
             selmode_name(m), scalar_src1 ? "scalar" : "tensor");
}

/// The UB address held in CMPMASK for mode 2 without a selMask argument.
inline SelBits sel_from_register_address() {
    uint64_t v = 0;
    std::memcpy(&v, cmp_register().bytes, 8);
    CoreContext& c = core();
    uintptr_t ub = reinterpret_cast<uintptr_t>(c.ub);
    uint64_t off;
    if (v < UB_SIZE) off = v;
    else if (v >= ub && v < ub + UB_SIZE) off = v - ub;
    else if ((v & 0xFFFFFFFFull) < UB_SIZE) off = v & 0xFFFFFFFFull;  // 32-bit address duplicated across the register
    else fail("select-bad-cmpmask", "Select (VSEL_TENSOR_TENSOR_MODE): the CMPMASK register holds 0x%llx, not a UB address "
              "of the selMask tensor (SetCmpMask must be given a tensor holding that address)", (unsigned long long)v);
    SelBits s;
    s.base = c.ub + off;
    s.limit = uint64_t(UB_SIZE - off) * 8;
    return s;
}

}  // namespace kgen

namespace AscendC {

// ---- count forms -------------------------------------------------------------------------------

template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
    static_assert(kgen::sel_type_ok<T>, "Select: T must be half or float on dav-2201");
    static_assert(kgen::sel_mask_type_ok<U>, "Select: selMask must be an integer tensor (uint8_t, uint16_t, uint32_t or uint64_t)");
    kgen::select_mode_check(selMode, false);
    kgen::SelBits bits = kgen::sel_from_tensor(selMask, selMode == SELMODE::VSEL_CMPMASK_SPR, kgen::per_repeat<T>());
    kgen::select_count(dst, src0, src1, bits, count);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, uint32_t count) {
    static_assert(kgen::sel_type_ok<T>, "Select: T must be half or float on dav-2201");
    static_assert(kgen::sel_mask_type_ok<U>, "Select: selMask must be an integer tensor (uint8_t, uint16_t, uint32_t or uint64_t)");
    kgen::select_mode_check(selMode, true);
    kgen::load_scalar_register(src1);
    kgen::SelBits bits = kgen::sel_from_tensor(selMask, false, kgen::per_repeat<T>());
    kgen::select_count(dst, src0, src1, bits, count);
}

// ---- mask/repeat forms -----------------------------------------------------------------------------

namespace detail_sel {
template <typename T, typename U, typename Src1, typename M>
inline void select_masked(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                          const Src1& src1, SELMODE selMode, M mask, uint8_t repeatTime, const BinaryRepeatParams& p) {
    static_assert(kgen::sel_type_ok<T>, "Select: T must be half or float on dav-2201");
    static_assert(kgen::sel_mask_type_ok<U>, "Select: selMask must be an integer tensor (uint8_t, uint16_t, uint32_t or uint64_t)");
    constexpr bool scalar = !std::is_same_v<Src1, LocalTensor<T>>;
    kgen::select_mode_check(selMode, scalar);
    constexpr uint32_t per = kgen::per_repeat<T>();
    kgen::RepeatPlan plan = kgen::make_plan("Select", mask, per, repeatTime, true);  // isSetMask is reserved
    if constexpr (scalar) kgen::load_scalar_register(static_cast<T>(src1));
    kgen::SelBits bits = kgen::sel_from_tensor(selMask, selMode == SELMODE::VSEL_CMPMASK_SPR, per);
    kgen::select_repeat(plan, dst, src0, src1, bits, p);
}
}  // namespace detail_sel

template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams) {
    detail_sel::select_masked(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams) {
    detail_sel::select_masked(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    detail_sel::select_masked(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    detail_sel::select_masked(dst, selMask, src0, src1, selMode, mask, repeatTime, repeatParams);
}

// ---- forms without a mask: vector mask register + CMPMASK register ---------------------------------

/// Modes 0 and 2; selection bits (mode 0) or the selMask address (mode 2) come from SetCmpMask.
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams) {
    static_assert(kgen::sel_type_ok<T>, "Select: T must be half or float on dav-2201");
    static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  "Select<T, VSEL_TENSOR_SCALAR_MODE> without a mask takes (dst, selMask, src0, repeat, params)");
    constexpr uint32_t per = kgen::per_repeat<T>();
    kgen::RepeatPlan plan = kgen::plan_from_register(per, repeatTime);
    kgen::SelBits bits;
    if constexpr (selMode == SELMODE::VSEL_CMPMASK_SPR) {
        bits.base = kgen::cmp_register().bytes;
        bits.reuse = true;
        bits.limit = per;
    } else {
        bits = kgen::sel_from_register_address();
    }
    kgen::select_repeat(plan, dst, src0, src1, bits, repeatParams);
}
/// Mode 1: the scalar src1 is the first sizeof(T) bytes of CMPMASK (SetCmpMask of a tensor holding it).
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams) {
    static_assert(kgen::sel_type_ok<T>, "Select: T must be half or float on dav-2201");
    static_assert(kgen::sel_mask_type_ok<U>, "Select: selMask must be an integer tensor (uint8_t, uint16_t, uint32_t or uint64_t)");
    constexpr uint32_t per = kgen::per_repeat<T>();
    kgen::RepeatPlan plan = kgen::plan_from_register(per, repeatTime);
    T scalar;
    std::memcpy(&scalar, kgen::cmp_register().bytes, sizeof(T));
    kgen::SelBits bits = kgen::sel_from_tensor(selMask, false, per);
    kgen::select_repeat(plan, dst, src0, scalar, bits, repeatParams);
}

}  // namespace AscendC
