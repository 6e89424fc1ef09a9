// kgen AscendC CPU emulator -- the vector unit's addressing engine.
//
// Documented rules followed (dav-2201 vector unit):
//  * One instruction repeat works on 256 bytes = 8 data blocks of 32 bytes; a repeat holds
//    256 / sizeof(T) elements (for mixed-width ops: 256 / the wider element size).
//  * Mask/repeat form: element i of repeat r of an operand is at
//      base + r * repStride * 32 B + (i / epb) * blkStride * 32 B + (i % epb) * sizeof(T),
//    epb = 32 / sizeof(T) (elements per block), strides counted in 32-byte blocks.
//  * Normal mask: a number m in [1, elements per repeat]; the first m elements of every
//    repeat are computed. Bit mask: uint64_t mask[2], bit i of mask[0] (i < 64) or of
//    mask[1] (64 <= i < 128) enables element i; for 32-bit types only mask[0] counts.
//    Masked-off destination elements keep their old values.
//  * repeatTimes is 0..255; 0 does nothing.
//  * Counter mode (SetMaskCount): the mask (register, or the argument when isSetMask = true)
//    is the total number of elements; repeatTimes is ignored, repeats follow from the total
//    and the last repeat computes only the tail. SetMaskNorm returns to the normal mode.
//  * Count form Op(dst, src..., count): the first `count` elements, contiguous.
//  * Every vector operand must start at a 32-byte aligned UB address.
//
// @api BinaryRepeatParams UnaryRepeatParams SetVectorMask ResetMask SetMaskCount SetMaskNorm MaskMode
#pragma once
#include <algorithm>
#include <cstdint>

#include "kgen_sim/tensor.h"

namespace AscendC {

constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint16_t DEFAULT_BLK_STRIDE = 1;
constexpr uint16_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t BLOCK_CUBE = 16;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr uint64_t FULL_MASK = 0xFFFFFFFFFFFFFFFFull;
// Derived sizes CANN's kernel_utils_constants.h declares in namespace AscendC (kernels use them unqualified)
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / 2;
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / 4;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / 2;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / 4;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / 2;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / 4;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;

struct BinaryRepeatParams {
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint16_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint16_t dstBlk, uint16_t s0Blk, uint16_t s1Blk, uint16_t dstRep, uint16_t s0Rep, uint16_t s1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(s0Blk), src1BlkStride(s1Blk), dstRepStride(dstRep), src0RepStride(s0Rep),
          src1RepStride(s1Rep) {}
};

struct UnaryRepeatParams {
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint16_t dstRep, uint16_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
};

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

}  // namespace AscendC

namespace kgen {

/// Which elements of a repeat an instruction computes.
struct MaskSpec {
    bool bits = false;       // bit mask (lo/hi) or normal mask (count)
    uint64_t lo = 0, hi = 0; // bit mask words
    uint32_t count = 0;      // normal mask: first `count` elements
    uint64_t limit = ~0ull;  // counter mode: elements computed in total (r * per_rep + i < limit)
    bool on(uint32_t i) const {
        if (!bits) return i < count;
        return i < 64 ? ((lo >> i) & 1ull) : ((hi >> (i - 64)) & 1ull);
    }
};

/// Normal mask `m` for a repeat of `per_rep` elements; m must be in [1, per_rep].
inline MaskSpec normal_mask(const char* api, uint64_t m, uint32_t per_rep) {
    if (m == 0 || m > per_rep)
        fail("bad-mask", "%s: normal mask %llu is outside [1, %u] (elements per repeat for this data type)", api,
             (unsigned long long)m, per_rep);
    MaskSpec s;
    s.count = static_cast<uint32_t>(m);
    return s;
}
/// Bit mask {mask[0], mask[1]}; for 32-bit types (per_rep = 64) only mask[0] counts.
inline MaskSpec bit_mask(const char* api, const uint64_t* m, uint32_t per_rep) {
    if (!m) fail("bad-mask", "%s: null bit mask", api);
    MaskSpec s;
    s.bits = true;
    s.lo = m[0];
    s.hi = per_rep > 64 ? m[1] : 0;
    if (per_rep < 64) s.lo &= (1ull << per_rep) - 1;
    return s;
}

/// One operand of a mask/repeat instruction: a tensor with block and repeat strides.
template <typename T>
struct Strided {
    T* base;
    uint32_t size;
    uint64_t reach;   // LocalTensor::reach(): past `size` but inside a TBuf's buffer is `ub-past-tensor`
    uint32_t blk, rep;
    const char* api;
    static constexpr uint32_t epb = ONE_BLK / sizeof(T);
    template <typename Tensor>
    Strided(const Tensor& t, uint32_t blk_, uint32_t rep_, const char* api_)
        : base(t.raw()), size(t.GetSize()), reach(t.reach()), blk(blk_), rep(rep_), api(api_) {
        t.check_aligned(api_);
    }
    uint64_t index(uint32_t r, uint32_t i) const { return uint64_t(r) * rep * epb + uint64_t(i / epb) * blk * epb + i % epb; }
    T& at(uint32_t r, uint32_t i) const {
        uint64_t idx = index(r, i);
        if (idx >= size) {
            if (idx >= reach)
                fail("ub-out-of-bounds", "%s: repeat %u element %u addresses element %llu of a tensor of %u elements (check "
                     "repeatTimes and the strides)", api, r, i, (unsigned long long)idx, size);
            warn("ub-past-tensor", "%s: repeat %u element %u addresses element %llu of a tensor of %u elements taken with "
                 "TBuf::Get(len); it lies inside that TBuf's buffer (or past the last buffer, in UB no buffer occupies), which "
                 "the hardware does not bound, so the access is made",
                 api, r, i, (unsigned long long)idx, size);
        }
        return base[idx];
    }
};

template <typename... Ts> constexpr uint32_t max_size_of() { return std::max({static_cast<uint32_t>(sizeof(Ts))...}); }
/// Elements per repeat for an instruction over these element types.
template <typename... Ts> constexpr uint32_t per_repeat() { return ONE_REP / max_size_of<Ts...>(); }

/// Run `body(r, i)` for every enabled element of `repeat` repeats.
template <typename Body>
inline void for_each_masked(const MaskSpec& m, uint32_t repeat, uint32_t per_rep, Body body) {
    for (uint32_t r = 0; r < repeat; ++r)
        for (uint32_t i = 0; i < per_rep; ++i) {
            if (uint64_t(r) * per_rep + i >= m.limit) return;
            if (m.on(i)) body(r, i);
        }
}

/// Check a count-form length against each operand; all operands must be aligned.
template <typename Tensor>
inline void check_count_operand(const char* api, const Tensor& t, int64_t count) {
    t.check_aligned(api);
    if (count < 0) fail("bad-count", "%s: negative count %lld", api, (long long)count);
    t.check(0, static_cast<uint64_t>(count), api);
}

inline uint32_t repeats_for(uint64_t bytes) { return static_cast<uint32_t>((bytes + ONE_REP - 1) / ONE_REP); }

// ---- generic engines: f(dst&, src...) computes one element --------------------------------

template <typename TD, typename TS, typename F>
void unary_count(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src, int32_t count, F f) {
    check_count_operand(api, dst, count);
    check_count_operand(api, src, count);
    TD* d = dst.raw();
    const TS* s = src.raw();
    for (int32_t i = 0; i < count; ++i) f(d[i], s[i]);
    trace(api, Pipe::V, uint64_t(count) * std::max(sizeof(TD), sizeof(TS)), repeats_for(uint64_t(count) * std::max(sizeof(TD), sizeof(TS))), 0, 0,
          static_cast<uint16_t>(std::max(sizeof(TD), sizeof(TS))));
}

template <typename TD, typename TS0, typename TS1, typename F>
void binary_count(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS0>& s0,
                  const AscendC::LocalTensor<TS1>& s1, int32_t count, F f) {
    check_count_operand(api, dst, count);
    check_count_operand(api, s0, count);
    check_count_operand(api, s1, count);
    TD* d = dst.raw();
    const TS0* a = s0.raw();
    const TS1* b = s1.raw();
    for (int32_t i = 0; i < count; ++i) f(d[i], a[i], b[i]);
    uint64_t bytes = uint64_t(count) * max_size_of<TD, TS0, TS1>();
    trace(api, Pipe::V, bytes, repeats_for(bytes), 0, 0, static_cast<uint16_t>(max_size_of<TD, TS0, TS1>()));
}

template <typename TD, typename TS, typename F>
void unary_repeat(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src, const MaskSpec& m,
                  uint32_t repeat, const AscendC::UnaryRepeatParams& p, F f) {
    if (repeat == 0) return;
    Strided<TD> D(dst, p.dstBlkStride, p.dstRepStride, api);
    Strided<const TS> S(src, p.srcBlkStride, p.srcRepStride, api);
    for_each_masked(m, repeat, per_repeat<TD, TS>(), [&](uint32_t r, uint32_t i) { f(D.at(r, i), S.at(r, i)); });
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat, 0, 0, static_cast<uint16_t>(std::max(sizeof(TD), sizeof(TS))));
}

template <typename TD, typename TS0, typename TS1, typename F>
void binary_repeat(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS0>& s0,
                   const AscendC::LocalTensor<TS1>& s1, const MaskSpec& m, uint32_t repeat, const AscendC::BinaryRepeatParams& p, F f) {
    if (repeat == 0) return;
    Strided<TD> D(dst, p.dstBlkStride, p.dstRepStride, api);
    Strided<const TS0> A(s0, p.src0BlkStride, p.src0RepStride, api);
    Strided<const TS1> B(s1, p.src1BlkStride, p.src1RepStride, api);
    for_each_masked(m, repeat, per_repeat<TD, TS0, TS1>(), [&](uint32_t r, uint32_t i) { f(D.at(r, i), A.at(r, i), B.at(r, i)); });
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat, 0, 0, static_cast<uint16_t>(max_size_of<TD, TS0, TS1>()));
}

/// Counter mode (SetMaskCount): `total` elements in all, repeatTimes is ignored and follows
/// from the total; the last repeat computes only the tail.
inline MaskSpec counter_mask(uint64_t total, uint32_t per_rep, uint32_t* repeat_inout) {
    MaskSpec s;
    s.count = per_rep;
    s.limit = total;
    *repeat_inout = static_cast<uint32_t>((total + per_rep - 1) / per_rep);
    return s;
}

/// The mask register state for isSetMask = false calls (SetVectorMask / SetMaskCount).
inline MaskSpec register_mask(uint32_t per_rep, uint32_t* repeat_inout) {
    CoreContext& c = core();
    MaskSpec s;
    if (c.mask_counter_mode) return counter_mask(c.mask[0], per_rep, repeat_inout);
    s.bits = true;
    s.lo = c.mask[0];
    s.hi = per_rep > 64 ? c.mask[1] : 0;
    return s;
}

/// Helper type: the mask argument of the mask/repeat form (normal count or bit array).
template <typename... Ts>
inline MaskSpec make_mask(const char* api, uint64_t m) { return normal_mask(api, m, per_repeat<Ts...>()); }
template <typename... Ts>
inline MaskSpec make_mask(const char* api, const uint64_t* m) { return bit_mask(api, m, per_repeat<Ts...>()); }

/// The mask of a mask/repeat call: the mask argument (isSetMask = true) or the mask register
/// (false). In counter mode the argument (its low 64 bits) is the total element count.
template <typename... Ts>
inline MaskSpec call_mask(const char* api, bool isSetMask, uint64_t m, uint32_t* repeat_inout) {
    if (!isSetMask) return register_mask(per_repeat<Ts...>(), repeat_inout);
    if (core().mask_counter_mode) return counter_mask(m, per_repeat<Ts...>(), repeat_inout);
    return make_mask<Ts...>(api, m);
}
template <typename... Ts>
inline MaskSpec call_mask(const char* api, bool isSetMask, const uint64_t* m, uint32_t* repeat_inout) {
    if (!isSetMask) return register_mask(per_repeat<Ts...>(), repeat_inout);
    if (core().mask_counter_mode) {
        if (!m) fail("bad-mask", "%s: null bit mask", api);
        return counter_mask(m[0], per_repeat<Ts...>(), repeat_inout);
    }
    return make_mask<Ts...>(api, m);
}

}  // namespace kgen

namespace AscendC {

/// Placeholder mask arguments for calls with isSetMask = false (the register is used instead).
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

/// Set the vector mask register used by calls with isSetMask = false.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
    kgen::core().mask[0] = maskLow;
    kgen::core().mask[1] = maskHigh;
    (void)mode;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
    auto& c = kgen::core();
    if (c.mask_counter_mode || mode == MaskMode::COUNTER) {
        c.mask[0] = static_cast<uint64_t>(len);
        c.mask[1] = 0;
        return;
    }
    constexpr uint32_t per = kgen::ONE_REP / sizeof(T);
    uint32_t n = static_cast<uint32_t>(std::min<int64_t>(std::max<int32_t>(len, 0), per));
    c.mask[0] = n >= 64 ? ~0ull : ((1ull << n) - 1);
    c.mask[1] = n > 64 ? (n >= 128 ? ~0ull : ((1ull << (n - 64)) - 1)) : 0;
}
inline void ResetMask() { kgen::core().mask[0] = kgen::core().mask[1] = ~0ull; }
inline void SetMaskCount() { kgen::core().mask_counter_mode = true; }
inline void SetMaskNorm() { kgen::core().mask_counter_mode = false; }

}  // namespace AscendC
