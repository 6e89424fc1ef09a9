// kgen AscendC CPU emulator -- per-repeat reduction instructions (dav-2201).
//
// Documented rules followed (AscendC API pages for the reduction family, Atlas A2):
//  * Supported element types are half and float. A repeat holds 256 bytes (128 half / 64 float);
//    source addressing uses srcBlkStride / srcRepStride in 32-byte blocks as every vector op.
//  * WholeReduceSum / RepeatReduceSum: one sum per repeat, written to dst[r * dstRepStride]
//    (dstRepStride counted in dst elements). RepeatReduceSum takes a normal mask only and
//    ignores dstBlkStride.
//  * WholeReduceMax / WholeReduceMin: one extreme value and its index inside the repeat
//    (0..elements per repeat - 1); on ties the smallest index wins. ReduceOrder selects the
//    layout: [value, index], [index, value], [value] or [index]. The index is stored with the
//    bit width of T (uint16 bits in a half slot, uint32 bits in a float slot), except
//    ORDER_ONLY_INDEX, which always stores a uint32. dstRepStride units: 2*sizeof(T) bytes with
//    value and index, sizeof(T) for value only, 4 bytes for index only. dst alignment: 4 B
//    (half) / 8 B (float) with value and index.
//  * BlockReduceSum / Max / Min: one result per 32-byte block, 8 per repeat, written to
//    dst[r * dstRepStride * 8 + block]; dst aligned to 16 B (half) / 32 B (float). A block with
//    no enabled element writes nothing (the old dst value stays).
//  * PairReduceSum: sum of adjacent pairs (2k, 2k+1); 64 (half) / 32 (float) results per
//    repeat at dst[r * dstRepStride * (elements per repeat / 2) + k]; dst 32-byte aligned.
//  * Sums are computed as a pairwise binary tree inside the repeat (lane 2k + lane 2k+1, then
//    the partial results pairwise again, ...), every addition rounded to T. Lanes masked off
//    contribute zero. Overflow of a half partial sum gives inf (the default non-saturating
//    mode; saturation mode, SetCtrlSpr, is not emulated).
//  * repeatTime is 0..255; repeatTime 0 or a mask of 0 is a no-op (nothing is written).
//  * isSetMask = false uses the mask register (SetVectorMask / counter mode).
//  * WholeReduceMax / WholeReduceMin also set the max/min register GetReduceMaxMinCount reads
//    (kgen_sim/reduce_spr.h).
//
// @api WholeReduceSum WholeReduceMax WholeReduceMin BlockReduceSum BlockReduceMax BlockReduceMin
// @api PairReduceSum RepeatReduceSum ReduceOrder
#pragma once
#include <cstring>
#include <type_traits>

#include "kgen_sim/reduce_spr.h"  // the max/min register GetReduceMaxMinCount reads
#include "kgen_sim/vec_engine.h"

namespace AscendC {
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
}  // namespace AscendC

namespace kgen {
namespace red {

template <typename T>
constexpr void check_type() {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "reduction instructions support half and float on dav-2201");
}

template <typename T> inline T add(T a, T b) { return static_cast<T>(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(b)); }

/// Pairwise tree sum of `n` lanes (n a power of two), every step rounded to T.
template <typename T>
inline T tree_sum(T* lanes, uint32_t n) {
    for (uint32_t w = n; w > 1; w /= 2)
        for (uint32_t k = 0; k < w / 2; ++k) lanes[k] = add(lanes[2 * k], lanes[2 * k + 1]);
    return lanes[0];
}

/// Which lanes of which repeat are enabled: the mask (normal, bit, or counter-mode limit).
struct Lanes {
    MaskSpec m;
    uint32_t per = 0;
    bool on(uint32_t r, uint32_t i) const { return uint64_t(r) * per + i < m.limit && m.on(i); }
    bool none() const { return m.bits ? (m.lo == 0 && m.hi == 0) : m.count == 0; }
};

/// The lanes for a normal mask (0 = no-op, as documented), a bit mask, the mask register
/// (isSetMask = false) or, in counter mode, the total element count.
template <typename T, bool isSetMask>
inline Lanes lanes_of(const char* api, int64_t mask, uint32_t* repeat) {
    Lanes L;
    L.per = per_repeat<T>();
    if (mask < 0) fail("bad-mask", "%s: negative mask %lld", api, (long long)mask);
    if (isSetMask && mask == 0 && !core().mask_counter_mode) return L;  // count 0: nothing enabled
    L.m = call_mask<T>(api, isSetMask, static_cast<uint64_t>(mask), repeat);
    return L;
}
template <typename T, bool isSetMask>
inline Lanes lanes_of(const char* api, const uint64_t* mask, uint32_t* repeat) {
    Lanes L;
    L.per = per_repeat<T>();
    L.m = call_mask<T>(api, isSetMask, mask, repeat);
    return L;
}

inline uint32_t repeat_arg(const char* api, int32_t repeat) {
    if (repeat < 0 || repeat > 255) fail("bad-repeat", "%s: repeatTime %d is outside [0, 255]", api, repeat);
    return static_cast<uint32_t>(repeat);
}
inline uint32_t stride_arg(const char* api, const char* what, int32_t v) {
    if (v < 0 || v > 65535) fail("bad-stride", "%s: %s %d is outside [0, 65535]", api, what, v);
    return static_cast<uint32_t>(v);
}

template <typename T>
inline void check_dst_align(const char* api, const AscendC::LocalTensor<T>& dst, uint32_t bytes) {
    dst.live(api);
    if (dst.GetPhyAddr() % bytes)
        fail("ub-misaligned", "%s needs dst aligned to %u bytes here; dst starts at UB offset %llu", api, bytes,
             (unsigned long long)dst.GetPhyAddr());
}

/// Store `n` raw bytes at byte offset `off` of dst, bounds-checked.
template <typename T>
inline void store_bytes(const char* api, const AscendC::LocalTensor<T>& dst, uint64_t off, const void* p, uint32_t n) {
    uint64_t size = uint64_t(dst.GetSize()) * sizeof(T);
    if (off + n > size)
        fail("ub-out-of-bounds", "%s writes bytes [%llu, %llu) of a dst tensor of %llu bytes (check repeatTime and "
             "dstRepStride)", api, (unsigned long long)off, (unsigned long long)(off + n), (unsigned long long)size);
    std::memcpy(reinterpret_cast<uint8_t*>(dst.raw()) + off, p, n);
}

/// Index bits in the width of T: uint16 for half, uint32 for float.
template <typename T>
inline T index_as(uint32_t idx) {
    T out;
    if constexpr (sizeof(T) == 2) { uint16_t v = static_cast<uint16_t>(idx); std::memcpy(&out, &v, 2); }
    else { std::memcpy(&out, &idx, 4); }
    return out;
}

/// Extreme of the enabled lanes of repeat r: first index wins on ties. Returns false if none.
template <typename T, bool IsMax>
inline bool extreme(const Strided<const T>& S, const Lanes& L, uint32_t r, T* val, uint32_t* idx) {
    bool have = false;
    for (uint32_t i = 0; i < L.per; ++i) {
        if (!L.on(r, i)) continue;
        T v = S.at(r, i);
        bool better = !have || (IsMax ? (static_cast<float>(v) > static_cast<float>(*val))
                                      : (static_cast<float>(v) < static_cast<float>(*val)));
        if (better) { *val = v; *idx = i; have = true; }
    }
    return have;
}

template <typename T>
void whole_sum(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Lanes& L,
               uint32_t repeat, uint32_t dstRep, uint32_t srcBlk, uint32_t srcRep) {
    check_type<T>();
    if (repeat == 0 || L.none()) return;
    Strided<const T> S(src, srcBlk, srcRep, api);
    dst.live(api);
    T lanes[128];
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t i = 0; i < L.per; ++i) lanes[i] = L.on(r, i) ? S.at(r, i) : T(0);
        T s = tree_sum(lanes, L.per);
        store_bytes(api, dst, uint64_t(r) * dstRep * sizeof(T), &s, sizeof(T));
    }
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat);
}

template <typename T, bool IsMax>
void whole_extreme(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Lanes& L,
                   uint32_t repeat, uint32_t dstRep, uint32_t srcBlk, uint32_t srcRep, AscendC::ReduceOrder order) {
    check_type<T>();
    using AscendC::ReduceOrder;
    uint32_t unit = order == ReduceOrder::ORDER_ONLY_VALUE ? sizeof(T) : order == ReduceOrder::ORDER_ONLY_INDEX ? 4u : 2 * sizeof(T);
    check_dst_align(api, dst, order == ReduceOrder::ORDER_ONLY_INDEX ? 4u : unit);
    if (repeat == 0 || L.none()) return;
    Strided<const T> S(src, srcBlk, srcRep, api);
    T best{};
    uint32_t best_idx = 0;
    bool any = false;
    for (uint32_t r = 0; r < repeat; ++r) {
        T v{};
        uint32_t idx = 0;
        if (!extreme<T, IsMax>(S, L, r, &v, &idx)) continue;
        if (!any || (IsMax ? static_cast<float>(v) > static_cast<float>(best) : static_cast<float>(v) < static_cast<float>(best))) {
            best = v;  // the register keeps the extreme of all repeats, the earliest on ties
            best_idx = r * L.per + idx;
            any = true;
        }
        uint64_t off = uint64_t(r) * dstRep * unit;
        T pair[2];
        switch (order) {
            case ReduceOrder::ORDER_VALUE_INDEX: pair[0] = v; pair[1] = index_as<T>(idx); store_bytes(api, dst, off, pair, 2 * sizeof(T)); break;
            case ReduceOrder::ORDER_INDEX_VALUE: pair[0] = index_as<T>(idx); pair[1] = v; store_bytes(api, dst, off, pair, 2 * sizeof(T)); break;
            case ReduceOrder::ORDER_ONLY_VALUE: store_bytes(api, dst, off, &v, sizeof(T)); break;
            case ReduceOrder::ORDER_ONLY_INDEX: store_bytes(api, dst, off, &idx, 4); break;
            default: fail("bad-order", "%s: unknown ReduceOrder %d", api, int(order));
        }
    }
    if (any) record_max_min<T>(api, best, best_idx, srcBlk == 1 && srcRep == 8 && !core().mask_counter_mode);
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat);
}

/// kind: 0 sum, 1 max, 2 min.
template <typename T>
void block_reduce(const char* api, int kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  const Lanes& L, uint32_t repeat, uint32_t dstRep, uint32_t srcBlk, uint32_t srcRep) {
    check_type<T>();
    check_dst_align(api, dst, BLK_PER_REP * sizeof(T));
    if (repeat == 0 || L.none()) return;
    Strided<const T> S(src, srcBlk, srcRep, api);
    constexpr uint32_t epb = ONE_BLK / sizeof(T);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t b = 0; b < BLK_PER_REP; ++b) {
            T lanes[16];
            bool any = false;
            T best{};
            for (uint32_t e = 0; e < epb; ++e) {
                uint32_t i = b * epb + e;
                bool on = L.on(r, i);
                lanes[e] = on ? S.at(r, i) : T(0);
                if (!on) continue;
                float v = static_cast<float>(lanes[e]);
                if (!any || (kind == 1 && v > static_cast<float>(best)) || (kind == 2 && v < static_cast<float>(best))) best = lanes[e];
                any = true;
            }
            if (!any) continue;  // documented: a fully masked block leaves dst unchanged
            T out = kind == 0 ? tree_sum(lanes, epb) : best;
            store_bytes(api, dst, (uint64_t(r) * dstRep * BLK_PER_REP + b) * sizeof(T), &out, sizeof(T));
        }
    }
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat);
}

template <typename T>
void pair_sum(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Lanes& L,
              uint32_t repeat, uint32_t dstRep, uint32_t srcBlk, uint32_t srcRep) {
    check_type<T>();
    dst.check_aligned(api);
    if (repeat == 0 || L.none()) return;
    Strided<const T> S(src, srcBlk, srcRep, api);
    const uint32_t half_rep = L.per / 2;
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t k = 0; k < half_rep; ++k) {
            bool a_on = L.on(r, 2 * k), b_on = L.on(r, 2 * k + 1);
            if (!a_on && !b_on) continue;
            T out = add(a_on ? S.at(r, 2 * k) : T(0), b_on ? S.at(r, 2 * k + 1) : T(0));
            store_bytes(api, dst, (uint64_t(r) * dstRep * half_rep + k) * sizeof(T), &out, sizeof(T));
        }
    }
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat);
}

}  // namespace red
}  // namespace kgen

namespace AscendC {

// ---- WholeReduceSum / RepeatReduceSum -----------------------------------------------------------
template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride) {
    const char* api = "WholeReduceSum";
    uint32_t rep = kgen::red::repeat_arg(api, repeatTime);
    auto L = kgen::red::lanes_of<T, isSetMask>(api, mask, &rep);
    kgen::red::whole_sum(api, dst, src, L, rep, kgen::red::stride_arg(api, "dstRepStride", dstRepStride),
                         kgen::red::stride_arg(api, "srcBlkStride", srcBlkStride), kgen::red::stride_arg(api, "srcRepStride", srcRepStride));
}
template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride) {
    const char* api = "WholeReduceSum";
    uint32_t rep = kgen::red::repeat_arg(api, repeatTime);
    auto L = kgen::red::lanes_of<T, isSetMask>(api, int64_t(mask), &rep);
    kgen::red::whole_sum(api, dst, src, L, rep, kgen::red::stride_arg(api, "dstRepStride", dstRepStride),
                         kgen::red::stride_arg(api, "srcBlkStride", srcBlkStride), kgen::red::stride_arg(api, "srcRepStride", srcRepStride));
}
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride) {
    const char* api = "RepeatReduceSum";
    (void)dstBlkStride;  // documented as ignored
    uint32_t rep = kgen::red::repeat_arg(api, repeatTime);
    auto L = kgen::red::lanes_of<T, isSetMask>(api, int64_t(mask), &rep);
    kgen::red::whole_sum(api, dst, src, L, rep, kgen::red::stride_arg(api, "dstRepStride", dstRepStride),
                         kgen::red::stride_arg(api, "srcBlkStride", srcBlkStride), kgen::red::stride_arg(api, "srcRepStride", srcRepStride));
}

// ---- WholeReduceMax / WholeReduceMin ---------------------------------------------------------------
#define KGEN_WHOLE_EXTREME(NAME, ISMAX, MASKT)                                                                       \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, MASKT mask, const int32_t repeatTime,    \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,             \
                     ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                                           \
        const char* api = #NAME;                                                                                     \
        uint32_t rep = kgen::red::repeat_arg(api, repeatTime);                                                       \
        auto L = kgen::red::lanes_of<T, isSetMask>(api, mask, &rep);                                                 \
        kgen::red::whole_extreme<T, ISMAX>(api, dst, src, L, rep, kgen::red::stride_arg(api, "dstRepStride", dstRepStride), \
                                           kgen::red::stride_arg(api, "srcBlkStride", srcBlkStride),                 \
                                           kgen::red::stride_arg(api, "srcRepStride", srcRepStride), order);         \
    }
KGEN_WHOLE_EXTREME(WholeReduceMax, true, const uint64_t*)
KGEN_WHOLE_EXTREME(WholeReduceMax, true, const int32_t)
KGEN_WHOLE_EXTREME(WholeReduceMin, false, const uint64_t*)
KGEN_WHOLE_EXTREME(WholeReduceMin, false, const int32_t)
#undef KGEN_WHOLE_EXTREME

// ---- BlockReduceSum / Max / Min, PairReduceSum (repeatTime comes before the mask) ---------------------
#define KGEN_BLOCK_REDUCE(NAME, CALL, MASKT)                                                                         \
    template <typename T, bool isSetMask = true>                                                                     \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, MASKT mask,    \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) {           \
        const char* api = #NAME;                                                                                     \
        uint32_t rep = kgen::red::repeat_arg(api, repeatTime);                                                       \
        auto L = kgen::red::lanes_of<T, isSetMask>(api, mask, &rep);                                                 \
        uint32_t dRep = kgen::red::stride_arg(api, "dstRepStride", dstRepStride);                                    \
        uint32_t sBlk = kgen::red::stride_arg(api, "srcBlkStride", srcBlkStride);                                    \
        uint32_t sRep = kgen::red::stride_arg(api, "srcRepStride", srcRepStride);                                    \
        CALL;                                                                                                        \
    }
#define KGEN_BLOCK_REDUCE_BOTH(NAME, CALL)           \
    KGEN_BLOCK_REDUCE(NAME, CALL, const uint64_t*)   \
    KGEN_BLOCK_REDUCE(NAME, CALL, const int32_t)
KGEN_BLOCK_REDUCE_BOTH(BlockReduceSum, kgen::red::block_reduce(api, 0, dst, src, L, rep, dRep, sBlk, sRep))
KGEN_BLOCK_REDUCE_BOTH(BlockReduceMax, kgen::red::block_reduce(api, 1, dst, src, L, rep, dRep, sBlk, sRep))
KGEN_BLOCK_REDUCE_BOTH(BlockReduceMin, kgen::red::block_reduce(api, 2, dst, src, L, rep, dRep, sBlk, sRep))
KGEN_BLOCK_REDUCE_BOTH(PairReduceSum, kgen::red::pair_sum(api, dst, src, L, rep, dRep, sBlk, sRep))
#undef KGEN_BLOCK_REDUCE_BOTH
#undef KGEN_BLOCK_REDUCE

}  // namespace AscendC
