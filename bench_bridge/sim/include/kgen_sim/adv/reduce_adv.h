// kgen AscendC CPU emulator -- the high-level reductions: Sum, Mean (last axis, SumParams /
// MeanParams) and the pattern forms ReduceSum / ReduceMean / ReduceMax / ReduceMin<T, pattern>.
//
// Documented rules followed (dav-2201 pages of each API):
//  * Sum<T, reduceDim = -1, isReuseSource, isBasicBlock>(dst, src[, sharedTmpBuffer], SumParams
//    {outter, inner, n}): src is outter rows of inner elements (inner = n rounded up to 32 bytes),
//    dst[i] = the sum of row i's first n elements. The additions follow ReduceSum: a pairwise tree
//    inside each 256-byte repeat, the repeat results then added in order, every step rounded to T.
//    Temporary bytes (GetSumMaxMinTmpSize): ceil(n / (256 / sizeof(T))) rounded up to a block of T,
//    times sizeof(T).
//  * Mean<T, accType = T, isReuseSource, isBasicBlock, reduceDim>(dst, src[, sharedTmpBuffer],
//    MeanParams): the same sum computed in accType (half inputs may use float), then divided by n and
//    rounded to T. Temporary bytes (GetMeanMaxMinTmpSize): align32(ceil(n / (256 / srcSize))), plus
//    inner * 4 with the repeat count taken per 64 floats when half is accumulated in float.
//    T: half or float; accType must not be less precise than T. reduceDim must be -1.
//  * Pattern forms ReduceSum / ReduceMean / ReduceMax / ReduceMin<T, pattern, isReuseSource>(dst, src
//    [, sharedTmpBuffer], const uint32_t srcShape[2], bool srcInnerPad): pattern is
//    Pattern::Reduce::AR (reduce the last axis: dst has srcShape[0] values) or ::RA (reduce the first
//    axis: dst has srcShape[1] values). Rows are stored padded to 32 bytes; srcInnerPad must be
//    true on dav-2201. ReduceSum / ReduceMean take float only, ReduceMax / ReduceMin half or float.
//    Sums use binary folding: the part past the largest power of two k <= count is added onto the
//    first k values, then the k values are added pairwise (every step in float).
//    Temporary bytes (Get<Name>MaxMinTmpSize, isReuseSource false): adv/reduce_rules.h.
//  * Source and destination must not overlap (`operand-overlap`); a passed buffer smaller than the
//    minimum: `adv-tmp-too-small`; the forms without it take it from free UB (`adv-tmp-no-room`).
//    Shape/params that break these rules: `reduce-shape` error.
//
// Precision: Sum / Mean / the pattern sums reproduce the documented addition order in T (or the
// accumulation type), so they match the NPU's rounding as far as that order is documented; the
// division of Mean is one correctly rounded step (the NPU may multiply by 1/n instead: 1 ulp).
//
// @api Sum Mean SumParams MeanParams Pattern ReduceMean
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/norm_types.h"
#include "kgen_sim/adv/reduce_rules.h"
#include "kgen_sim/reduce_repeat.h"

namespace AscendC {
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
namespace Pattern {
namespace Reduce {
// Only the two-dimensional patterns dav-2201 supports are usable; the tag says which axis is reduced.
struct AR { static constexpr bool kReduceLast = true; static constexpr int kDims = 2; };
struct RA { static constexpr bool kReduceLast = false; static constexpr int kDims = 2; };
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace kgen {
namespace adv {

/// Sum of v[0..n) in T: pairwise tree per 256-byte repeat, repeat results added in order.
template <class T>
inline T repeat_tree_sum(const T* v, uint32_t n) {
    const uint32_t per = 256 / sizeof(T);
    std::vector<T> lanes(per);
    T acc = T(0);
    for (uint32_t r = 0; r * per < n; ++r) {
        for (uint32_t i = 0; i < per; ++i) lanes[i] = r * per + i < n ? v[r * per + i] : T(0);
        T s = red::tree_sum(lanes.data(), per);
        acc = r == 0 ? s : red::add(acc, s);
    }
    return acc;
}

/// Binary folding sum in float: fold the part past the largest power of two, then pairwise.
inline float fold_sum(std::vector<float> v) {
    if (v.empty()) return 0.0f;
    uint32_t k = pow2_floor(static_cast<uint32_t>(v.size()));
    for (size_t i = k; i < v.size(); ++i) v[i - k] = v[i - k] + v[i];
    for (uint32_t w = k; w > 1; w /= 2)
        for (uint32_t i = 0; i < w / 2; ++i) v[i] = v[2 * i] + v[2 * i + 1];
    return v[0];
}

template <class T, class Acc>
inline void sum_rows(const char* api, bool mean, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp, uint32_t outter, uint32_t inner, uint32_t n) {
    static_assert(hf_v<T> && hf_v<Acc> && sizeof(Acc) >= sizeof(T), "Sum/Mean: T half or float, accType not less precise");
    if (outter == 0 || n == 0 || n > inner || (uint64_t(inner) * sizeof(T)) % 32)
        fail("reduce-shape", "%s: needs outter > 0, 0 < n <= inner and inner * sizeof(T) a multiple of 32 (outter %u, "
             "inner %u, n %u)", api, outter, inner, n);
    const uint64_t total = uint64_t(outter) * inner;
    operand(api, src, total);
    operand(api, dst, outter);
    no_overlap(api, dst, outter, src, total, "the source and destination tensors");
    const uint32_t need = mean ? mean_tmp_bytes(n, sizeof(T), sizeof(Acc)) : sum_tmp_bytes(n, sizeof(T));
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, outter)}, {lo_of(src), hi_of(src, total)}});
    std::vector<Acc> row(n);
    for (uint32_t i = 0; i < outter; ++i) {
        const T* x = src.raw() + uint64_t(i) * inner;
        for (uint32_t k = 0; k < n; ++k) row[k] = Acc(static_cast<float>(x[k]));
        Acc s = repeat_tree_sum(row.data(), n);
        dst.raw()[i] = mean ? T(static_cast<float>(static_cast<double>(static_cast<float>(s)) / n)) : T(static_cast<float>(s));
    }
    clobber_tmp(t);
    trace_call(api, total * sizeof(T), 2);
}

/// kind: 0 sum, 1 mean, 2 max, 3 min.
template <class T, class P>
inline void reduce_pattern(const char* api, int kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                           const AscendC::LocalTensor<uint8_t>* tmp, const uint32_t shape[], bool innerPad) {
    static_assert(std::is_same_v<P, AscendC::Pattern::Reduce::AR> || std::is_same_v<P, AscendC::Pattern::Reduce::RA>,
                  "the high-level reduce APIs support Pattern::Reduce::AR and RA only on dav-2201");
    const uint32_t first = shape[0], last = shape[1];
    if (!innerPad) fail("reduce-shape", "%s: srcInnerPad must be true on dav-2201", api);
    if (first == 0 || last == 0) fail("reduce-shape", "%s: both axes of srcShape must be > 0 (%u, %u)", api, first, last);
    const uint32_t stride = align_up(last, 32 / sizeof(T));
    const bool ar = P::kReduceLast;
    const uint64_t total = uint64_t(first) * stride, nd = ar ? first : last;
    operand(api, src, total);
    operand(api, dst, nd);
    no_overlap(api, dst, nd, src, total, "the source and destination tensors");
    const uint32_t need = reduce_pattern_tmp(kind >= 2 ? 1 : 0, ar, first, last, sizeof(T));
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, nd)}, {lo_of(src), hi_of(src, total)}});
    const uint32_t outer = ar ? first : last, cnt = ar ? last : first;
    std::vector<float> v(cnt);
    for (uint32_t o = 0; o < outer; ++o) {
        for (uint32_t c = 0; c < cnt; ++c)
            v[c] = static_cast<float>(ar ? src.raw()[uint64_t(o) * stride + c] : src.raw()[uint64_t(c) * stride + o]);
        float r;
        if (kind == 2) r = *std::max_element(v.begin(), v.end());
        else if (kind == 3) r = *std::min_element(v.begin(), v.end());
        else r = fold_sum(v);
        if (kind == 1) r = r / static_cast<float>(cnt);
        dst.raw()[o] = T(r);
    }
    clobber_tmp(t);
    trace_call(api, total * sizeof(T), 2);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const SumParams& sumParams) {
    static_assert(reduceDim == -1, "Sum reduces the last axis only: pass reduceDim = -1");
    kgen::adv::sum_rows<T, T>("Sum", false, dstTensor, srcTensor, &sharedTmpBuffer, sumParams.outter, sumParams.inner,
                              sumParams.n);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) {
    static_assert(reduceDim == -1, "Sum reduces the last axis only: pass reduceDim = -1");
    kgen::adv::sum_rows<T, T>("Sum", false, dstTensor, srcTensor, nullptr, sumParams.outter, sumParams.inner, sumParams.n);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const MeanParams& meanParams) {
    static_assert(reduceDim == -1, "Mean reduces the last axis only: pass reduceDim = -1");
    kgen::adv::sum_rows<T, accType>("Mean", true, dstTensor, srcTensor, &sharedTmpBuffer, meanParams.outter,
                                    meanParams.inner, meanParams.n);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams) {
    static_assert(reduceDim == -1, "Mean reduces the last axis only: pass reduceDim = -1");
    kgen::adv::sum_rows<T, accType>("Mean", true, dstTensor, srcTensor, nullptr, meanParams.outter, meanParams.inner,
                                    meanParams.n);
}

#define KGEN_REDUCE_PATTERN(NAME, KIND, TYPECHECK)                                                                       \
    template <class T, class pattern, bool isReuseSource = false>                                                        \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                  \
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad) {         \
        static_assert(TYPECHECK, #NAME " (pattern form): unsupported data type on dav-2201");                           \
        kgen::adv::reduce_pattern<T, pattern>(#NAME, KIND, dstTensor, srcTensor, &sharedTmpBuffer, srcShape, srcInnerPad); \
    }                                                                                                                    \
    template <class T, class pattern, bool isReuseSource = false>                                                        \
    inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],        \
                     bool srcInnerPad) {                                                                                 \
        static_assert(TYPECHECK, #NAME " (pattern form): unsupported data type on dav-2201");                           \
        kgen::adv::reduce_pattern<T, pattern>(#NAME, KIND, dstTensor, srcTensor, nullptr, srcShape, srcInnerPad);        \
    }
KGEN_REDUCE_PATTERN(ReduceSum, 0, (std::is_same_v<T, float>))
KGEN_REDUCE_PATTERN(ReduceMean, 1, (std::is_same_v<T, float>))
KGEN_REDUCE_PATTERN(ReduceMax, 2, (std::is_same_v<T, float> || std::is_same_v<T, half>))
KGEN_REDUCE_PATTERN(ReduceMin, 3, (std::is_same_v<T, float> || std::is_same_v<T, half>))
#undef KGEN_REDUCE_PATTERN

}  // namespace AscendC
