// kgen AscendC CPU emulator -- TopK (high-level sort family), dav-2201.
//
// Documented rules followed (TopK page, Atlas A2 column; tiling and temporary sizes in topk_types.h):
//  * TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValue, dstIndex, src, srcIndex, finish,
//    [tmpLocal,] k, tiling, topKInfo, isLargest = true): for each of the topKInfo.outter rows of src
//    (inner elements each, the first n valid) the k largest (isLargest) or smallest values, in that
//    order, and their int32 indices. T is half or float.
//  * The NPU sorts with Sort32 + MrgSort (descending, stable); for the smallest values it sorts the
//    negated data. So equal values come out in input order (the earlier position first) in both
//    directions, +inf is the largest value, and NaN comes first whether largest or smallest is asked.
//  * Indices: isInitIndex = false generates 0 .. inner-1 (srcIndex is not read); true reads them from
//    srcIndex: one row of inner indices shared by all rows (Normal) or outter * inner (Small).
//  * Output rows: Normal mode writes row r at dstValue[r * k_pad] (k_pad = k rounded up to 32 bytes
//    of T) and dstIndex[r * kpad_index] (k rounded up to 8); Small mode packs rows k apart. Only the
//    first k elements of a row are written; the padding keeps what it held.
//  * isHasfinish (Normal mode only): a row whose finish flag is true gets all k indices set to n.
//  * Limits: inner a multiple of 32, at most 4096 (Normal) or exactly 32 (Small); 1 <= n <= inner;
//    1 <= k <= n; outter >= 1 (`topk-shape`, `topk-k`, `topk-config`). dst/src overlap is not allowed.
//    isReuseSrc is reserved on this architecture (default false).
//  * The TopkTiling must be the one TopKTilingFunc computes for this call: the fields the dav-2201
//    implementation reads (offsets, repeat counts, GatherMask patterns) are compared with the
//    documented rule and a mismatch is a `topk-tiling` error (the NPU would compute garbage).
//  * Temporary buffer: tmpLocal (uint8_t, VECCALC; another position is a `wrong-position` warning) of at
//    least the documented size, or taken from free UB (adv_common.h: `adv-tmp-too-small`, `adv-tmp-no-room`).
//  * The TopKConfig template argument (RADIX_SELECT, order, sorted) is an Ascend 950 feature: on
//    dav-2201 anything but defaultTopKConfig is `api-unsupported`.
// Not documented; the emulator's choice: half values are ordered through float (exact); the source
// is left unchanged (the NPU negates a copy for the smallest values). In Small mode a tiling made for
// more rows than the call has (a tail tile) is accepted, with the temporary size of those rows: its
// offsets only place the scratch areas further apart.
//
// @api TopK
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/topk_types.h"
#include "kgen_sim/sort.h"

namespace kgen {
namespace adv {

struct TopkCall {
    int32_t outter, inner, n, k;
    bool normal, isLargest;
};

inline void topk_check_shape(const TopkCall& c, bool isHasfinish) {
    const char* mode = c.normal ? "TOPK_NORMAL" : "TOPK_NSMALL";
    if (c.outter < 1) fail("topk-shape", "TopK: topKInfo.outter is %d; it must be at least 1", c.outter);
    if (c.inner <= 0 || c.inner % 32)
        fail("topk-shape", "TopK: topKInfo.inner is %d; it must be a positive multiple of 32 (pad each row of n values "
             "up to it)", c.inner);
    if (c.normal && c.inner > kTopkNormalMaxInner)
        fail("topk-shape", "TopK: topKInfo.inner is %d; TOPK_NORMAL allows at most 4096", c.inner);
    if (!c.normal && c.inner != kTopkSmallInner)
        fail("topk-shape", "TopK: topKInfo.inner is %d; TOPK_NSMALL needs exactly 32", c.inner);
    if (c.n < 1 || c.n > c.inner)
        fail("topk-shape", "TopK: topKInfo.n is %d; it must be in [1, inner = %d]", c.n, c.inner);
    if (c.k < 1 || c.k > c.n) fail("topk-k", "TopK: k is %d; it must be in [1, topKInfo.n = %d]", c.k, c.n);
    if (!c.normal && isHasfinish)
        fail("topk-config", "TopK: isHasfinish must be false in %s mode (finish flags are a TOPK_NORMAL feature)", mode);
}

/// Rows the tiling was made for. Small mode's buffer offsets grow with outter: a tiling made for more
/// rows than this call processes (a tail tile) only places the scratch areas further apart, so it is
/// accepted when the temporary buffer is as large as that tiling needs.
inline int32_t topk_tiling_rows(const TopkTiling& got, const TopkCall& c, uint32_t ts) {
    const int32_t per_row = int32_t(8 / ts) * c.inner;
    if (c.normal || per_row <= 0 || got.innerDataSize <= 0 || got.innerDataSize % per_row) return c.outter;
    return std::max(c.outter, got.innerDataSize / per_row);
}

/// Compare the fields the dav-2201 implementation reads with the documented rule.
inline void topk_check_tiling(const TopkTiling& got, const TopkCall& c, uint32_t ts, bool isInitIndex, int32_t rows) {
    TopkTiling want{};
    const AscendC::TopKMode mode = c.normal ? AscendC::TopKMode::TOPK_NORMAL : AscendC::TopKMode::TOPK_NSMALL;
    topk_fill(want, c.inner, rows, c.k, ts, isInitIndex, mode, c.isLargest);
    struct F { const char* name; int64_t g, w; };
    std::vector<F> fs;
    auto add = [&](const char* nm, int64_t g, int64_t w) { fs.push_back({nm, g, w}); };
#define KGEN_TK(f) add(#f, static_cast<int64_t>(got.f), static_cast<int64_t>(want.f))
    KGEN_TK(innerDataSize);
    if (c.normal) {
        KGEN_TK(sortRepeat); KGEN_TK(mrgSortRepeat); KGEN_TK(copyUbToUbBlockCount);
        KGEN_TK(kAlignFourBytes); KGEN_TK(kAlignTwoBytes);
        KGEN_TK(maskVreducev2FourBytes); KGEN_TK(maskVreducev2TwoBytes);
        KGEN_TK(mrgSortSrc1offset); KGEN_TK(mrgSortSrc2offset); KGEN_TK(mrgSortSrc3offset);
        KGEN_TK(mrgSortTwoQueueSrc1Offset);
        if (!isInitIndex) KGEN_TK(srcIndexOffset);
    } else {
        KGEN_TK(topkMrgSrc1MaskSizeOffset);
        if (!isInitIndex) KGEN_TK(topkNSmallSrcIndexOffset);
        KGEN_TK(vreduceIdxMask0); KGEN_TK(vreduceIdxMask1);
        if (ts == 4) { KGEN_TK(vreduceValMask0); KGEN_TK(vreduceValMask1); }
        else {
            KGEN_TK(vreducehalfValMask0); KGEN_TK(vreducehalfValMask1); KGEN_TK(vreducehalfValMask2);
            KGEN_TK(vreducehalfValMask3); KGEN_TK(vreducehalfValMask4); KGEN_TK(vreducehalfValMask5);
            KGEN_TK(vreducehalfValMask6); KGEN_TK(vreducehalfValMask7);
        }
    }
#undef KGEN_TK
    for (const F& f : fs)
        if (f.g != f.w)
            fail("topk-tiling", "TopK: tiling.%s is %lld but this call (outter %d, inner %d, k %d, %s, isInitIndex %d, %s, "
                 "isLargest %d) needs %lld: fill the TopkTiling with TopKTilingFunc for the same arguments (the NPU would "
                 "compute garbage)", f.name, (long long)f.g, c.outter, c.inner, c.k, ts == 2 ? "half" : "float",
                 int(isInitIndex), c.normal ? "TOPK_NORMAL" : "TOPK_NSMALL", int(c.isLargest), (long long)f.w);
}

/// Stable order of one row: descending (largest) or ascending (smallest) by value; NaN first either way.
template <class T>
inline void topk_row_order(const T* row, int32_t inner, bool isLargest, std::vector<int32_t>& pos) {
    pos.resize(inner);
    std::iota(pos.begin(), pos.end(), 0);
    std::vector<float> key(inner);
    for (int32_t j = 0; j < inner; ++j) {
        const float v = static_cast<float>(row[j]);
        key[j] = isLargest ? v : -v;  // the NPU sorts the negated data for the smallest values
    }
    std::stable_sort(pos.begin(), pos.end(), [&](int32_t a, int32_t b) { return sort_before(key[a], key[b]); });
}

template <class T, bool isInitIndex, bool isHasfinish, bool isReuseSrc, AscendC::TopKMode topkMode>
inline void topk_run(const AscendC::LocalTensor<T>& dstValue, const AscendC::LocalTensor<int32_t>& dstIndex,
                     const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& srcIndex,
                     const AscendC::LocalTensor<bool>& finish, const AscendC::LocalTensor<uint8_t>* tmp, int32_t k,
                     const TopkTiling& tiling, const AscendC::TopKInfo& info, bool isLargest) {
    static_assert(hf_v<T>, "TopK supports half and float only on dav-2201");
    const char* api = "TopK";
    constexpr bool normal = topkMode == AscendC::TopKMode::TOPK_NORMAL;
    const TopkCall c{info.outter, info.inner, info.n, k, normal, isLargest};
    topk_check_shape(c, isHasfinish);
    if (isReuseSrc) warn("topk-config", "TopK: isReuseSrc is reserved on dav-2201 (pass false); it has no effect");
    const int32_t tilingRows = topk_tiling_rows(tiling, c, sizeof(T));
    topk_check_tiling(tiling, c, sizeof(T), isInitIndex, tilingRows);
    const uint64_t all = uint64_t(c.outter) * c.inner;
    const int32_t strideV = normal ? round_up_i(k, 32 / int32_t(sizeof(T))) : k;
    const int32_t strideI = normal ? round_up_i(k, 8) : k;
    const uint64_t nV = uint64_t(c.outter) * strideV, nI = uint64_t(c.outter) * strideI;
    operand(api, src, all);
    operand(api, dstValue, nV);
    operand(api, dstIndex, nI);
    const uint64_t nSrcIdx = normal ? uint64_t(c.inner) : all;
    if (isInitIndex) operand(api, srcIndex, nSrcIdx);
    if (isHasfinish) {
        finish.live(api);
        finish.check(0, c.outter, api);
    }
    no_overlap(api, dstValue, nV, src, all, "the source and dstValueLocal");
    no_overlap(api, dstIndex, nI, src, all, "the source and dstIndexLocal");
    no_overlap(api, dstValue, nV, dstIndex, nI, "dstValueLocal and dstIndexLocal");
    if (isInitIndex) {
        no_overlap(api, dstValue, nV, srcIndex, nSrcIdx, "srcIndexLocal and dstValueLocal");
        no_overlap(api, dstIndex, nI, srcIndex, nSrcIdx, "srcIndexLocal and dstIndexLocal");
    }
    if (tmp && tmp->GetPosition() != AscendC::TPosition::VECCALC)
        warn("wrong-position", "TopK: tmpLocal should be a VECCALC tensor (the only logical position documented for it)");
    const uint32_t need = topk_tmp_bytes(c.inner, tilingRows, isInitIndex, topkMode, isLargest);
    const Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(dstValue), hi_of(dstValue, nV)}, {lo_of(dstIndex), hi_of(dstIndex, nI)},
                       {lo_of(src), hi_of(src, all)}});
    // read every input before writing anything
    std::vector<T> vals(src.raw(), src.raw() + all);
    std::vector<int32_t> idx(isInitIndex ? srcIndex.raw() : nullptr, isInitIndex ? srcIndex.raw() + nSrcIdx : nullptr);
    std::vector<uint8_t> done(c.outter, 0);
    if (isHasfinish)
        for (int32_t r = 0; r < c.outter; ++r) done[r] = finish.raw()[r] ? 1 : 0;
    std::vector<int32_t> pos;
    for (int32_t r = 0; r < c.outter; ++r) {
        const T* row = vals.data() + uint64_t(r) * c.inner;
        topk_row_order(row, c.inner, isLargest, pos);
        T* dv = dstValue.raw() + uint64_t(r) * strideV;
        int32_t* di = dstIndex.raw() + uint64_t(r) * strideI;
        for (int32_t i = 0; i < k; ++i) {
            const int32_t p = pos[i];
            dv[i] = row[p];
            if (done[r]) di[i] = c.n;
            else if (!isInitIndex) di[i] = p;
            else di[i] = normal ? idx[p] : idx[uint64_t(r) * c.inner + p];
        }
    }
    clobber_tmp(t);
    uint32_t rounds = 0;
    for (uint32_t q = static_cast<uint32_t>(c.inner / 32); q > 1; q = (q + 3) / 4) ++rounds;
    trace_call(api, all * 8, 2 + rounds);  // Sort32, the merge rounds, the GatherMask extraction
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

/// TopK with a caller-provided temporary buffer.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
                 const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal,
                 const LocalTensor<uint8_t>& tmpLocal, const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
                 const bool isLargest = true) {
    if constexpr (config.algo != TopKAlgo::MERGE_SORT || config.order != TopKOrder::UNSET || !config.sorted)
        kgen::fail("api-unsupported", "TopK: a TopKConfig other than defaultTopKConfig (RADIX_SELECT, order, sorted) is an "
                   "Ascend 950 feature; dav-2201 has only the merge-sort TopK with isLargest");
    kgen::adv::topk_run<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValueLocal, dstIndexLocal, srcLocal,
                                                                            srcIndexLocal, finishLocal, &tmpLocal, k, tilling,
                                                                            topKInfo, isLargest);
}

/// TopK taking its temporary buffer from UB that TPipe has not handed out.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal, const LocalTensor<T>& srcLocal,
                 const LocalTensor<int32_t>& srcIndexLocal, const LocalTensor<bool>& finishLocal, const int32_t k,
                 const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
    if constexpr (config.algo != TopKAlgo::MERGE_SORT || config.order != TopKOrder::UNSET || !config.sorted)
        kgen::fail("api-unsupported", "TopK: a TopKConfig other than defaultTopKConfig (RADIX_SELECT, order, sorted) is an "
                   "Ascend 950 feature; dav-2201 has only the merge-sort TopK with isLargest");
    kgen::adv::topk_run<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValueLocal, dstIndexLocal, srcLocal,
                                                                            srcIndexLocal, finishLocal, nullptr, k, tilling,
                                                                            topKInfo, isLargest);
}

}  // namespace AscendC
