// kgen AscendC CPU emulator -- whole-tensor reductions ReduceSum / ReduceMax / ReduceMin.
// The per-repeat instructions (WholeReduce*, BlockReduce*, PairReduceSum, RepeatReduceSum)
// live in reduce_repeat.h, included below.
//
// Documented rules followed (AscendC ReduceSum / ReduceMax / ReduceMin pages, Atlas A2):
//  * Types half and float; dst, src and sharedTmpBuffer (workLocal) share T. src and
//    workLocal start 32-byte aligned; dst needs 2 B (half) / 4 B (float) for ReduceSum and
//    4 B / 8 B for ReduceMax / ReduceMin.
//  * Forms: count form (dst, src, work, count[, calIndex]) and mask forms
//    (dst, src, work, mask | mask[], repeatTime, srcRepStride[, calIndex]); repeatTime may
//    exceed 255 (any int32); srcRepStride counts 32-byte blocks; data blocks inside a repeat
//    are contiguous. count or repeatTime 0 is a no-op.
//  * ReduceMax / ReduceMin write dst[0] = value and, with calIndex, dst[1] = index of that
//    value in the source; on ties the first (smallest) index wins. The index keeps the bit
//    width of T: read it as uint16 bits (half) or uint32 bits (float). A half result cannot
//    hold an index above 65535 (reported as a warning: the index is silently truncated).
//    In the mask forms the index of element i of repeat r is r * srcRepStride * (32 /
//    sizeof(T)) + i.
//  * ReduceSum writes dst[0] = sum. Count form: a pairwise tree inside each repeat (see
//    reduce_repeat.h), the repeat results added one after another in order. Mask forms: a
//    pairwise tree inside each repeat, then the repeat results are reduced again as repeats of
//    a pairwise tree until one value is left. Every addition rounds to T.
//  * workLocal size (elements, checked; `reduce-worklocal-too-small` otherwise), with
//    R = repeatTime (mask forms) or max(1, count / elements per repeat) (count form),
//    align(x) = x rounded up to a multiple of 32 / sizeof(T):
//      ReduceSum mask forms: align(R); ReduceSum count form: not used (any size).
//      ReduceMax/Min without index: align(2R).
//      ReduceMax/Min with index: every round keeps its (value, index) pairs:
//        o1 = 2R, o(k+1) = ceil(o(k) / elements per repeat) * 2 until o = 2;
//        size = align(o1) + align(o2) + ... (e.g. half, R = 65: 144 + 16 + 16 = 176).
//    The emulator leaves the first-round (value, index) pairs / repeat sums in workLocal, as
//    the hardware does; workLocal may overlap dst or src (documented as allowed).
//
// @api ReduceSum ReduceMax ReduceMin
#pragma once
#include <vector>

#include "kgen_sim/reduce_repeat.h"
#include "kgen_sim/reduce_type_forms.h"  // ReduceRepeat / ReduceDataBlock / ReducePairElem (CANN 9.1 names)

namespace kgen {
namespace red {

template <typename T> constexpr uint32_t epb() { return ONE_BLK / sizeof(T); }
template <typename T> inline uint64_t align_elems(uint64_t n) { return (n + epb<T>() - 1) / epb<T>() * epb<T>(); }

/// Documented minimum workLocal size (elements) for ReduceMax / ReduceMin.
template <typename T>
inline uint64_t extreme_work_size(uint64_t first_repeats, bool cal_index) {
    const uint64_t per = per_repeat<T>();
    uint64_t o = 2 * first_repeats;
    uint64_t need = align_elems<T>(o);
    if (!cal_index) return need;
    while (o > 2) {
        o = (o + per - 1) / per * 2;
        need += align_elems<T>(o);
    }
    return need;
}

template <typename T>
inline void check_work(const char* api, const AscendC::LocalTensor<T>& work, uint64_t need, const char* why) {
    work.check_aligned(api);
    if (work.GetSize() < need)
        fail("reduce-worklocal-too-small", "%s: sharedTmpBuffer holds %u elements but %s needs at least %llu (%llu bytes)",
             api, work.GetSize(), why, (unsigned long long)need, (unsigned long long)(need * sizeof(T)));
}

/// One source element of a reduction: its value and its index as the API reports it.
template <typename T> struct Elem { T v; uint32_t idx; uint32_t rep; uint32_t lane; };

/// Enabled source elements of the count form (contiguous) or the mask forms (by repeat).
template <typename T>
inline std::vector<Elem<T>> gather_count(const char* api, const AscendC::LocalTensor<T>& src, uint32_t count) {
    check_count_operand(api, src, count);
    std::vector<Elem<T>> out(count);
    const T* s = src.raw();
    const uint32_t per = per_repeat<T>();
    for (uint32_t i = 0; i < count; ++i) out[i] = Elem<T>{s[i], i, i / per, i % per};
    return out;
}
template <typename T>
inline std::vector<Elem<T>> gather_mask(const char* api, const AscendC::LocalTensor<T>& src, const MaskSpec& m,
                                        uint32_t repeat, uint32_t srcRep) {
    Strided<const T> S(src, 1, srcRep, api);
    std::vector<Elem<T>> out;
    const uint32_t per = per_repeat<T>();
    for (uint32_t r = 0; r < repeat; ++r)
        for (uint32_t i = 0; i < per; ++i)
            if (m.on(i)) out.push_back(Elem<T>{S.at(r, i), uint32_t(uint64_t(r) * srcRep * epb<T>() + i), r, i});
    return out;
}

template <typename T>
inline void store_pair(const char* api, const AscendC::LocalTensor<T>& dst, T v, bool with_index, uint32_t idx) {
    if (with_index) {
        if constexpr (sizeof(T) == 2)
            if (idx > 0xFFFFu)
                warn("reduce-index-overflow", "%s: the index %u of the result does not fit the 16 bits a half dst holds "
                     "(documented limit 65535); the stored index is truncated", api, idx);
        T pair[2] = {v, index_as<T>(idx)};
        store_bytes(api, dst, 0, pair, 2 * sizeof(T));
    } else {
        store_bytes(api, dst, 0, &v, sizeof(T));
    }
}

/// ReduceMax / ReduceMin over the enabled elements; `first_repeats` sizes workLocal.
template <typename T, bool IsMax>
void reduce_extreme(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& work,
                    const std::vector<Elem<T>>& elems, uint64_t first_repeats, uint32_t repeats, bool cal_index) {
    check_type<T>();
    if (elems.empty()) return;  // count or repeatTime 0: documented no-op
    check_dst_align(api, dst, 2 * sizeof(T));
    check_work(api, work, extreme_work_size<T>(first_repeats, cal_index),
               cal_index ? "the documented rule with calIndex = true" : "the documented rule without index");
    // per-repeat extremes (first index wins), then the extreme of those (first repeat wins)
    std::vector<Elem<T>> best(repeats);
    std::vector<bool> have(repeats, false);
    for (const auto& e : elems) {
        float v = static_cast<float>(e.v);
        if (!have[e.rep] || (IsMax ? v > static_cast<float>(best[e.rep].v) : v < static_cast<float>(best[e.rep].v))) {
            best[e.rep] = e;
            have[e.rep] = true;
        }
    }
    Elem<T> win{};
    bool any = false;
    uint64_t wpos = 0;
    std::vector<T> pairs;
    for (uint32_t r = 0; r < repeats; ++r) {
        if (!have[r]) continue;
        pairs.push_back(best[r].v);
        pairs.push_back(index_as<T>(best[r].lane));
        float v = static_cast<float>(best[r].v);
        if (!any || (IsMax ? v > static_cast<float>(win.v) : v < static_cast<float>(win.v))) { win = best[r]; any = true; }
    }
    // leave the first-round (value, in-repeat index) pairs in workLocal, as the hardware does
    for (T p : pairs) {
        if (wpos >= work.GetSize()) break;
        work.raw()[wpos++] = p;
    }
    store_pair(api, dst, win.v, cal_index, win.idx);
    record_max_min<T>(api, win.v, win.idx, repeats == 1);  // value exact; the NPU's index only for one repeat
    trace(api, Pipe::V, uint64_t(elems.size()) * sizeof(T), repeats);
}

/// Pairwise-tree sum of each repeat's enabled elements.
template <typename T>
inline std::vector<T> repeat_sums(const std::vector<Elem<T>>& elems, uint32_t repeats) {
    const uint32_t per = per_repeat<T>();
    std::vector<T> lanes(uint64_t(repeats) * per, T(0));
    for (const auto& e : elems) lanes[uint64_t(e.rep) * per + e.lane] = e.v;
    std::vector<T> sums(repeats);
    for (uint32_t r = 0; r < repeats; ++r) sums[r] = tree_sum(&lanes[uint64_t(r) * per], per);
    return sums;
}

}  // namespace red
}  // namespace kgen

namespace AscendC {

// ---- ReduceSum ------------------------------------------------------------------------------------
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count) {
    const char* api = "ReduceSum";
    kgen::red::check_type<T>();
    int64_t n = count;
    if (!isSetMask && kgen::core().mask_counter_mode) n = static_cast<int64_t>(kgen::core().mask[0]);
    sharedTmpBuffer.live(api);
    if (n <= 0) {
        if (n < 0) kgen::fail("bad-count", "%s: negative count %lld", api, (long long)n);
        return;
    }
    auto elems = kgen::red::gather_count(api, src, static_cast<uint32_t>(n));
    const uint32_t per = kgen::per_repeat<T>();
    uint32_t repeats = static_cast<uint32_t>((n + per - 1) / per);
    auto sums = kgen::red::repeat_sums(elems, repeats);
    T acc = sums[0];
    for (uint32_t r = 1; r < repeats; ++r) acc = kgen::red::add(acc, sums[r]);  // repeats added in order
    kgen::red::store_bytes(api, dst, 0, &acc, sizeof(T));
    kgen::red::record_sum<T>(acc);  // the register GetReduceRepeatSumSpr reads (reduce_spr.h)
    kgen::trace(api, kgen::Pipe::V, uint64_t(n) * sizeof(T), repeats);
}

namespace detail_reduce {
template <typename T>
inline void reduce_sum_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                            const kgen::MaskSpec& m, int32_t repeatTime, int32_t srcRepStride) {
    const char* api = "ReduceSum";
    kgen::red::check_type<T>();
    if (repeatTime < 0) kgen::fail("bad-repeat", "%s: negative repeatTime %d", api, repeatTime);
    uint32_t sRep = kgen::red::stride_arg(api, "srcRepStride", srcRepStride);
    kgen::red::check_work(api, work, kgen::red::align_elems<T>(uint64_t(repeatTime)), "the documented rule align(repeatTime)");
    if (repeatTime == 0) return;
    auto elems = kgen::red::gather_mask(api, src, m, static_cast<uint32_t>(repeatTime), sRep);
    const uint32_t per = kgen::per_repeat<T>();
    std::vector<T> level = kgen::red::repeat_sums(elems, static_cast<uint32_t>(repeatTime));
    for (uint64_t i = 0; i < level.size() && i < work.GetSize(); ++i) work.raw()[i] = level[i];
    while (level.size() > 1) {  // reduce the repeat results as repeats of a pairwise tree
        std::vector<T> next;
        for (uint64_t b = 0; b < level.size(); b += per) {
            T lanes[128];
            for (uint32_t i = 0; i < per; ++i) lanes[i] = b + i < level.size() ? level[b + i] : T(0);
            next.push_back(kgen::red::tree_sum(lanes, per));
        }
        level.swap(next);
    }
    kgen::red::store_bytes(api, dst, 0, &level[0], sizeof(T));
    kgen::trace(api, kgen::Pipe::V, uint64_t(repeatTime) * kgen::ONE_REP, static_cast<uint32_t>(repeatTime));
}
}  // namespace detail_reduce

template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride) {
    detail_reduce::reduce_sum_mask(dst, src, sharedTmpBuffer, kgen::make_mask<T>("ReduceSum", mask), repeatTime, srcRepStride);
}
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride) {
    if (mask < 0) kgen::fail("bad-mask", "ReduceSum: negative mask %d", mask);
    detail_reduce::reduce_sum_mask(dst, src, sharedTmpBuffer, kgen::make_mask<T>("ReduceSum", uint64_t(mask)), repeatTime, srcRepStride);
}

// ---- ReduceMax / ReduceMin --------------------------------------------------------------------------
#define KGEN_REDUCE_EXTREME(NAME, ISMAX)                                                                              \
    template <typename T>                                                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,    \
                     const int32_t count, bool calIndex = 0) {                                                        \
        kgen::red::check_type<T>();                                                                                   \
        if (count < 0) kgen::fail("bad-count", "%s: negative count %d", #NAME, count);                                \
        const uint32_t per = kgen::per_repeat<T>();                                                                   \
        uint64_t first = std::max<uint64_t>(1, uint64_t(count) / per);                                                \
        auto elems = kgen::red::gather_count(#NAME, src, static_cast<uint32_t>(count));                               \
        kgen::red::reduce_extreme<T, ISMAX>(#NAME, dst, sharedTmpBuffer, elems, first, (count + per - 1) / per, calIndex); \
    }                                                                                                                 \
    template <typename T>                                                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,    \
                     const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0) { \
        kgen::red::check_type<T>();                                                                                   \
        if (repeatTime < 0) kgen::fail("bad-repeat", "%s: negative repeatTime %d", #NAME, repeatTime);                \
        uint32_t sRep = kgen::red::stride_arg(#NAME, "srcRepStride", srcRepStride);                                   \
        auto elems = kgen::red::gather_mask(#NAME, src, kgen::make_mask<T>(#NAME, mask), repeatTime, sRep);           \
        kgen::red::reduce_extreme<T, ISMAX>(#NAME, dst, sharedTmpBuffer, elems, repeatTime, repeatTime, calIndex);    \
    }                                                                                                                 \
    template <typename T>                                                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,    \
                     const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0) {   \
        kgen::red::check_type<T>();                                                                                   \
        if (repeatTime < 0) kgen::fail("bad-repeat", "%s: negative repeatTime %d", #NAME, repeatTime);                \
        if (mask < 0) kgen::fail("bad-mask", "%s: negative mask %d", #NAME, mask);                                    \
        uint32_t sRep = kgen::red::stride_arg(#NAME, "srcRepStride", srcRepStride);                                   \
        auto elems = kgen::red::gather_mask(#NAME, src, kgen::make_mask<T>(#NAME, uint64_t(mask)), repeatTime, sRep); \
        kgen::red::reduce_extreme<T, ISMAX>(#NAME, dst, sharedTmpBuffer, elems, repeatTime, repeatTime, calIndex);    \
    }
KGEN_REDUCE_EXTREME(ReduceMax, true)
KGEN_REDUCE_EXTREME(ReduceMin, false)
#undef KGEN_REDUCE_EXTREME

}  // namespace AscendC
