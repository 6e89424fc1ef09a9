// kgen AscendC CPU emulator -- Compare, Compares (CompareScalar), the CMPMASK register;
// Select lives in select.h (included at the end).
//
// Documented rules followed (dav-2201, Atlas A2):
//  * Compare(dst, src0, src1, cmpMode, ...) and Compares(dst, src0, scalar, cmpMode, ...) write one
//    bit per element: bit k of the result is bit (k % 8) of byte k / 8 of dst (little-endian bit
//    order), 1 when "src0 <cmpMode> src1" holds. CMPMODE: LT GT EQ LE GE NE.
//  * Types: T = half or float (every mode) or int32_t (EQ only); dst U = int8_t/uint8_t for
//    Compare, uint8_t for Compares. A non-EQ mode on int32_t is reported (`cmp-bad-mode`).
//  * Count form: count * sizeof(T) must be a multiple of 256 bytes; only whole 256-byte repeats
//    are compared and the remaining elements get no result bits. The emulator warns
//    (`compare-count-unaligned`) and writes nothing for them, as the hardware does.
//  * Mask/repeat form: on Atlas A2 the mask is a reserved parameter with no effect: every element
//    of each repeat is compared (the emulator warns `compare-mask-ignored` for a partial mask).
//    The lanes the mask leaves out are still read: where they lie past a source tensor (a Compare of
//    8 floats with mask 8 reads a whole 64-float repeat: NPUKernelBench's CrossEntropyLossGrad), the NPU
//    reads the UB bytes lying there and writes result bits for them; the emulator does the same with a
//    `compare-past-tensor` warning (past the end of UB it stays `ub-out-of-bounds`, and so does a lane the
//    mask asks for).
//    Sources step by the repeat parameters; the result bits of repeat r are written contiguously
//    at bit r * (256 / sizeof(T)) of dst (dst strides do not apply: the count form, issued with
//    default strides, yields contiguous bits).
//  * Compare(src0, src1, cmpMode, mask, repeatParams) (no dst): one repeat, the mask applies, the
//    result goes to the 128-bit CMPMASK register (disabled elements give 0 bits). GetCmpMask(dst)
//    copies the register's 16 bytes out, SetCmpMask(src) loads 16 bytes; both need a 16-byte aligned
//    UB address. T = half or float.
//  * count 0 / repeatTime 0 is a no-operation. Vector operands need 32-byte aligned addresses.
//  * Floats compare as IEEE values: NaN compares unequal to everything (NE true, others false);
//    -0 equals +0. (Not stated by the documentation; IEEE assumed.)
// The whole-tensor operator forms (dst = src0 < src1) are not emulated.
//
// @api Compare Compares CompareScalar CMPMODE GetCmpMask SetCmpMask
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kgen_sim/repeat_plan.h"
#include "kgen_sim/vec_engine.h"

namespace AscendC {
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
}  // namespace AscendC

namespace kgen {

/// The per-core CMPMASK special register (128 bits), written by Compare-to-register and SetCmpMask.
struct CmpMaskRegister {
    uint8_t bytes[16] = {0};
};
inline CmpMaskRegister& cmp_register() {
    static thread_local CmpMaskRegister r;
    return r;
}

inline const char* cmpmode_name(AscendC::CMPMODE m) {
    static const char* n[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
    unsigned k = static_cast<unsigned>(m);
    return k < 6 ? n[k] : "invalid";
}

template <typename T>
constexpr bool cmp_type_ok = std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int32_t>;

template <typename T>
inline void cmp_check_mode(const char* api, AscendC::CMPMODE m) {
    if (static_cast<unsigned>(m) > 5) fail("cmp-bad-mode", "%s: invalid CMPMODE value %u", api, static_cast<unsigned>(m));
    if constexpr (std::is_same_v<T, int32_t>)
        if (m != AscendC::CMPMODE::EQ)
            fail("cmp-bad-mode", "%s: int32_t operands support only CMPMODE::EQ on dav-2201, got CMPMODE::%s", api,
                 cmpmode_name(m));
}

template <typename T>
inline bool cmp_one(T a, T b, AscendC::CMPMODE m) {
    using C = std::conditional_t<std::is_integral_v<T>, int64_t, float>;
    C x = static_cast<C>(a), y = static_cast<C>(b);
    switch (m) {
        case AscendC::CMPMODE::LT: return x < y;
        case AscendC::CMPMODE::GT: return x > y;
        case AscendC::CMPMODE::EQ: return x == y;
        case AscendC::CMPMODE::LE: return x <= y;
        case AscendC::CMPMODE::GE: return x >= y;
        case AscendC::CMPMODE::NE: return x != y;
    }
    return false;
}

inline void put_bit(uint8_t* base, uint64_t k, bool v) {
    uint8_t bit = static_cast<uint8_t>(1u << (k % 8));
    if (v) base[k / 8] |= bit;
    else base[k / 8] &= static_cast<uint8_t>(~bit);
}
inline bool get_bit(const uint8_t* base, uint64_t k) { return (base[k / 8] >> (k % 8)) & 1u; }

/// Bytes of a tensor of any element type, checked to hold [0, nbytes).
template <typename U>
inline uint8_t* tensor_bytes(const AscendC::LocalTensor<U>& t, uint64_t nbytes, const char* api) {
    t.check(0, (nbytes + sizeof(U) - 1) / sizeof(U), api);
    return reinterpret_cast<uint8_t*>(t.raw());
}

/// Count form shared by Compare and Compares: only whole 256-byte repeats are compared.
template <typename T, typename U, typename Src1>
inline void compare_count(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
                          Src1 src1_at, AscendC::CMPMODE mode, uint32_t count) {
    cmp_check_mode<T>(api, mode);
    dst.check_aligned(api);
    src0.check_aligned(api);
    constexpr uint32_t per = per_repeat<T>();
    const uint32_t computed = count / per * per;
    if (computed != count)
        warn("compare-count-unaligned", "%s: count %u x %u bytes is not a multiple of 256 bytes; only the first %u "
             "elements are compared and the last %u get no result bits", api, count, (unsigned)sizeof(T), computed,
             count - computed);
    if (computed == 0) return;
    src0.check(0, computed, api);
    uint8_t* d = tensor_bytes(dst, computed / 8, api);
    const T* a = src0.raw();
    for (uint32_t k = 0; k < computed; ++k) put_bit(d, k, cmp_one<T>(a[k], src1_at(k), mode));
    trace(api, Pipe::V, uint64_t(computed) * sizeof(T), computed / per);
}

/// Warn when a mask/repeat Compare gets a partial mask: Atlas A2 ignores it.
template <typename M>
inline void compare_mask_note(const char* api, M mask, uint32_t per, bool set_mask) {
    if (!set_mask) return;
    bool full;
    if constexpr (std::is_pointer_v<M>) {
        uint64_t lo_full = per >= 64 ? ~0ull : ((1ull << per) - 1);
        uint64_t hi_full = per > 64 ? (per >= 128 ? ~0ull : ((1ull << (per - 64)) - 1)) : 0;
        full = mask && (mask[0] & lo_full) == lo_full && (per <= 64 || (mask[1] & hi_full) == hi_full);
    } else {
        full = static_cast<uint64_t>(mask) >= per;
    }
    if (!full)
        warn("compare-mask-ignored", "%s: the mask is a reserved parameter on dav-2201 and has no effect; all %u "
             "elements of every repeat are compared and their result bits written", api, per);
}

/// Which lanes of a repeat the call's mask asks for (the hardware compares all of them anyway).
struct CmpAsked {
    MaskSpec m;
    bool all = true;
    bool operator()(uint32_t i) const { return all || m.on(i); }
};
template <typename T, typename M>
inline CmpAsked cmp_asked(M mask, bool set_mask) {
    CmpAsked a;
    if (!set_mask || core().mask_counter_mode) return a;
    a.all = false;
    if constexpr (std::is_pointer_v<M>) {
        if (!mask) { a.all = true; return a; }
        a.m.bits = true;
        a.m.lo = mask[0];
        a.m.hi = per_repeat<T>() > 64 ? mask[1] : 0;
    } else {
        a.m.count = static_cast<uint32_t>(static_cast<uint64_t>(mask) > per_repeat<T>() ? per_repeat<T>() : static_cast<uint64_t>(mask));
    }
    return a;
}

/// A source lane of a mask/repeat Compare: a lane the mask leaves out that lies past the tensor but in UB
/// reads the bytes there (`compare-past-tensor`, file rules); otherwise the usual bounds.
template <typename T>
inline T cmp_src(const Strided<const T>& S, uint32_t r, uint32_t i, const CmpAsked& asked) {
    const uint64_t idx = S.index(r, i);
    if (idx < S.reach || asked(i)) return S.at(r, i);
    const uint64_t at = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(S.base + idx) - core().mem_base(Mem::UB));
    if (at + sizeof(T) > UB_SIZE) return S.at(r, i);
    warn("compare-past-tensor", "%s: lane %u of repeat %u lies past its source tensor (%u elements); the mask leaves it "
         "out but is ignored on dav-2201, so the NPU reads the UB bytes there and writes a result bit for it (so does "
         "the emulator)", S.api, i, r, S.size);
    T v;
    std::memcpy(&v, S.base + idx, sizeof(T));
    return v;
}

/// Mask/repeat form shared by Compare (src1 strided) and Compares (scalar).
template <typename T, typename U, typename Src1At>
inline void compare_repeat(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
                           uint16_t blk0, uint16_t rep0, Src1At src1_at, AscendC::CMPMODE mode, uint32_t repeat,
                           const CmpAsked& asked = CmpAsked()) {
    cmp_check_mode<T>(api, mode);
    if (repeat == 0) return;
    constexpr uint32_t per = per_repeat<T>();
    dst.check_aligned(api);
    Strided<const T> A(src0, blk0, rep0, api);
    uint8_t* d = tensor_bytes(dst, uint64_t(repeat) * per / 8, api);
    for (uint32_t r = 0; r < repeat; ++r)
        for (uint32_t i = 0; i < per; ++i)
            put_bit(d, uint64_t(r) * per + i, cmp_one<T>(cmp_src(A, r, i, asked), src1_at(r, i), mode));
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat);
}

}  // namespace kgen

namespace AscendC {

// ---- Compare: tensor with tensor ---------------------------------------------------------------

template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count) {
    static_assert(kgen::cmp_type_ok<T>, "Compare: T must be half, float or int32_t (EQ only) on dav-2201");
    static_assert(std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t>, "Compare: dst must be int8_t or uint8_t");
    src1.check_aligned("Compare");
    if (count / kgen::per_repeat<T>() * kgen::per_repeat<T>() > 0)
        src1.check(0, count / kgen::per_repeat<T>() * kgen::per_repeat<T>(), "Compare");
    const T* b = src1.raw();
    kgen::compare_count("Compare", dst, src0, [b](uint32_t k) { return b[k]; }, cmpMode, count);
}

namespace detail_cmp {
template <typename T, typename U, bool isSetMask, typename M>
inline void compare_tt(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                       M mask, uint8_t repeatTime, const BinaryRepeatParams& p) {
    static_assert(kgen::cmp_type_ok<T>, "Compare: T must be half, float or int32_t (EQ only) on dav-2201");
    static_assert(std::is_same_v<U, int8_t> || std::is_same_v<U, uint8_t>, "Compare: dst must be int8_t or uint8_t");
    kgen::compare_mask_note("Compare", mask, kgen::per_repeat<T>(), isSetMask);
    if (repeatTime == 0) return;
    kgen::Strided<const T> B(src1, p.src1BlkStride, p.src1RepStride, "Compare");
    const kgen::CmpAsked asked = kgen::cmp_asked<T>(mask, isSetMask);
    kgen::compare_repeat("Compare", dst, src0, p.src0BlkStride, p.src0RepStride,
                         [&B, &asked](uint32_t r, uint32_t i) { return kgen::cmp_src(B, r, i, asked); }, cmpMode, repeatTime,
                         asked);
}
template <typename T, typename U, bool isSetMask, typename M>
inline void compare_ts(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& src0, T scalar, CMPMODE cmpMode,
                       M mask, uint8_t repeatTime, const UnaryRepeatParams& p) {
    static_assert(kgen::cmp_type_ok<T>, "Compares: T must be half, float or int32_t (EQ only) on dav-2201");
    static_assert(std::is_same_v<U, uint8_t>, "Compares: dst must be uint8_t");
    kgen::compare_mask_note(api, mask, kgen::per_repeat<T>(), isSetMask);
    (void)p.dstBlkStride;
    kgen::compare_repeat(api, dst, src0, p.srcBlkStride, p.srcRepStride, [scalar](uint32_t, uint32_t) { return scalar; },
                         cmpMode, repeatTime, kgen::cmp_asked<T>(mask, isSetMask));
}
template <typename T, typename M>
inline void compare_to_register(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, M mask,
                                bool set_mask, const BinaryRepeatParams& p) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Compare (result to CMPMASK): T must be half or float");
    const char* api = "Compare";
    kgen::cmp_check_mode<T>(api, cmpMode);
    constexpr uint32_t per = kgen::per_repeat<T>();
    kgen::RepeatPlan plan = kgen::make_plan(api, mask, per, 1, set_mask);
    if (plan.repeat > 1) plan.repeat = 1;  // always a single repeat
    kgen::Strided<const T> A(src0, p.src0BlkStride, p.src0RepStride, api);
    kgen::Strided<const T> B(src1, p.src1BlkStride, p.src1RepStride, api);
    uint8_t bits[16] = {0};
    kgen::walk(plan, per, [&](uint32_t r, uint32_t i) { kgen::put_bit(bits, i, kgen::cmp_one<T>(A.at(r, i), B.at(r, i), cmpMode)); });
    std::memcpy(kgen::cmp_register().bytes, bits, 16);
    kgen::trace(api, kgen::Pipe::V, kgen::ONE_REP, 1);
}
}  // namespace detail_cmp

template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    detail_cmp::compare_tt<T, U, isSetMask>(dst, src0, src1, cmpMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
    detail_cmp::compare_tt<T, U, isSetMask>(dst, src0, src1, cmpMode, mask, repeatTime, repeatParams);
}

// ---- Compare into the CMPMASK register ------------------------------------------------------------

template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
                    const BinaryRepeatParams& repeatParams) {
    detail_cmp::compare_to_register(src0, src1, cmpMode, mask, isSetMask, repeatParams);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
                    const BinaryRepeatParams& repeatParams) {
    detail_cmp::compare_to_register(src0, src1, cmpMode, mask, isSetMask, repeatParams);
}

/// Copy the 128-bit CMPMASK register (16 bytes) to dst.
template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst) {
    dst.live("GetCmpMask");
    if (dst.GetPhyAddr() % 16)
        kgen::fail("ub-misaligned", "GetCmpMask needs a 16-byte aligned UB address; dst starts at UB offset %llu",
                   (unsigned long long)dst.GetPhyAddr());
    std::memcpy(kgen::tensor_bytes(dst, 16, "GetCmpMask"), kgen::cmp_register().bytes, 16);
    kgen::trace("GetCmpMask", kgen::Pipe::V, 16, 0);
}
/// Load the 128-bit CMPMASK register from the first 16 bytes of src.
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src) {
    src.live("SetCmpMask");
    if (src.GetPhyAddr() % 16)
        kgen::fail("ub-misaligned", "SetCmpMask needs a 16-byte aligned UB address; src starts at UB offset %llu",
                   (unsigned long long)src.GetPhyAddr());
    std::memcpy(kgen::cmp_register().bytes, kgen::tensor_bytes(src, 16, "SetCmpMask"), 16);
    kgen::trace("SetCmpMask", kgen::Pipe::V, 16, 0);
}

// ---- Compares: tensor with scalar (CompareScalar is its former name) -------------------------------

template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                     uint32_t count) {
    static_assert(kgen::cmp_type_ok<T>, "Compares: T must be half, float or int32_t (EQ only) on dav-2201");
    static_assert(std::is_same_v<U, uint8_t>, "Compares: dst must be uint8_t");
    kgen::compare_count("Compares", dst, src0, [src1Scalar](uint32_t) { return src1Scalar; }, cmpMode, count);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    detail_cmp::compare_ts<T, U, isSetMask>("Compares", dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    detail_cmp::compare_ts<T, U, isSetMask>("Compares", dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          uint32_t count) {
    static_assert(kgen::cmp_type_ok<T>, "CompareScalar: T must be half, float or int32_t (EQ only) on dav-2201");
    static_assert(std::is_same_v<U, uint8_t>, "CompareScalar: dst must be uint8_t");
    kgen::compare_count("CompareScalar", dst, src0, [src1Scalar](uint32_t) { return src1Scalar; }, cmpMode, count);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    detail_cmp::compare_ts<T, U, isSetMask>("CompareScalar", dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
    detail_cmp::compare_ts<T, U, isSetMask>("CompareScalar", dst, src0, src1Scalar, cmpMode, mask, repeatTime, repeatParams);
}

}  // namespace AscendC

#include "kgen_sim/select.h"
