// kgen AscendC CPU emulator -- the data types TopK's kernel and host sides share, and the dav-2201
// rules for its tiling fields and temporary buffer.
//
// Documented rules followed (TopK and TopK Tiling pages, Atlas A2 / dav-2201):
//  * TopkTiling (kernel side: a plain struct at global scope, also AscendC::tiling::TopkTiling) has
//    24 four-byte fields (tmpLocalSize ... vreduceIdxMask1) then 8 uint16_t fields
//    (vreducehalfValMask0..7): 112 bytes. The host class optiling::TopkTiling has the same fields.
//  * TopKInfo {outter = 1, inner, n}: rows, the row length as laid out in UB (a multiple of 32) and
//    the valid row length (1 <= n <= inner).
//  * TopKMode::TOPK_NORMAL / TOPK_NSMALL (Small: inner is exactly 32). TopKConfig {algo, order,
//    sorted} with TopKAlgo / TopKOrder exists for Ascend 950 only (RADIX_SELECT).
//  * Temporary buffer on dav-2201, bytes (minimum = maximum):
//      Normal: 16 * inner, plus 4 * inner when isInitIndex is false (the generated indices);
//      Small:  8 * inner * outter + 64, plus 4 * inner * outter when isLargest is false (the negated
//              copy), plus 4 * inner * outter when isInitIndex is false.
//    Normal mode needs no more for more rows: it works one row at a time.
//  * The tiling fields on dav-2201 (counts are elements of T unless said otherwise; ts = sizeof(T),
//    S = 8 / ts elements per 8-byte (score, index) structure):
//      both modes: allDataSize = inner * outter, kAlignFourBytes = k rounded up to 8;
//      Normal: tmpLocalSize = 16 * inner / ts (+ 4 * inner / ts without isInitIndex, then
//              srcIndexOffset = 16 * inner / ts), innerDataSize = S * inner, sortRepeat = inner / 32,
//              mrgSortRepeat = inner / 4, copyUbToUbBlockCount = inner / 4 (blocks),
//              kAlignTwoBytes = k rounded up to 16, maskOffset = outter * (k rounded to 32 bytes of T),
//              maskVreducev2FourBytes = 2k, maskVreducev2TwoBytes = 4k, mrgSortSrc{1,2,3}offset =
//              {1,2,3} * S, mrgSortTwoQueueSrc1Offset = S, mrgFourQueueTailPara1 = 2 * inner,
//              mrgFourQueueTailPara2 = 4 / ts;
//      Small:  innerDataSize = S * inner * outter, maskOffset = outter * k,
//              topkMrgSrc1MaskSizeOffset = innerDataSize (+ inner * outter when !isLargest),
//              tmpLocalSize = that + 64 / ts (+ 4 * inner * outter / ts without isInitIndex, then
//              topkNSmallSrcIndexOffset = the value before), and the GatherMask bit patterns:
//              vreduceIdxMask = "10" repeated k times (two 32-bit words), float vreduceValMask = "01"
//              repeated k times, half vreducehalfValMask0..7 = "0001" repeated, 4 per 16-bit word.
//
// @api TopkTiling TopKInfo TopKMode TopKConfig TopKAlgo TopKOrder defaultTopKConfig
#pragma once
#include <algorithm>
#include <cstdint>

struct TopkTiling {
    int32_t tmpLocalSize = 0;
    int32_t allDataSize = 0;
    int32_t innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0;
    int32_t kAlignFourBytes = 0;
    int32_t kAlignTwoBytes = 0;
    int32_t maskOffset = 0;
    int32_t maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0;
    int32_t mrgSortSrc1offset = 0;
    int32_t mrgSortSrc2offset = 0;
    int32_t mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0;
    int32_t mrgFourQueueTailPara1 = 0;
    int32_t mrgFourQueueTailPara2 = 0;
    int32_t srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0;
    int32_t topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0;
    uint32_t vreduceValMask1 = 0;
    uint32_t vreduceIdxMask0 = 0;
    uint32_t vreduceIdxMask1 = 0;
    uint16_t vreducehalfValMask0 = 0;
    uint16_t vreducehalfValMask1 = 0;
    uint16_t vreducehalfValMask2 = 0;
    uint16_t vreducehalfValMask3 = 0;
    uint16_t vreducehalfValMask4 = 0;
    uint16_t vreducehalfValMask5 = 0;
    uint16_t vreducehalfValMask6 = 0;
    uint16_t vreducehalfValMask7 = 0;
};
static_assert(sizeof(TopkTiling) == 112, "TopkTiling is 24 four-byte and 8 two-byte fields");

namespace AscendC {
namespace tiling {
using TopkTiling = ::TopkTiling;
}  // namespace tiling

enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };

struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

struct TopKInfo {
    int32_t outter = 1;
    int32_t inner = 0;  // the row length in UB: n rounded up to a multiple of 32
    int32_t n = 0;      // the valid row length
};

}  // namespace AscendC

namespace kgen {
namespace adv {

inline constexpr int32_t kTopkNormalMaxInner = 4096;
inline constexpr int32_t kTopkSmallInner = 32;
inline constexpr uint32_t kTopkSmallMaskBytes = 64;  // the GatherMask patterns of Small mode

inline int32_t round_up_i(int32_t v, int32_t m) { return (v + m - 1) / m * m; }

/// The documented minimum (= maximum) temporary bytes of TopK on dav-2201.
inline uint32_t topk_tmp_bytes(int32_t inner, int32_t outter, bool isInitIndex, AscendC::TopKMode mode, bool isLargest) {
    const uint32_t in = static_cast<uint32_t>(std::max(inner, 0)), all = in * static_cast<uint32_t>(std::max(outter, 0));
    if (mode == AscendC::TopKMode::TOPK_NORMAL) return 16 * in + (isInitIndex ? 0 : 4 * in);
    return 8 * all + kTopkSmallMaskBytes + (isLargest ? 0 : 4 * all) + (isInitIndex ? 0 : 4 * all);
}

/// `bits`-wide `unit` repeated `times` times (the GatherMask patterns of Small mode).
inline uint32_t repeat_bits(uint32_t unit, uint32_t width, int32_t times) {
    uint32_t m = 0;
    for (int32_t i = 0; i < times; ++i) m = (m << width) | unit;
    return m;
}

/// Fill any struct with TopkTiling's field names by the dav-2201 rules (host class or kernel struct).
template <class Tl>
inline void topk_fill(Tl& t, int32_t inner, int32_t outter, int32_t k, uint32_t ts, bool isInitIndex, AscendC::TopKMode mode,
                      bool isLargest) {
    const int32_t s = static_cast<int32_t>(8 / ts), its = static_cast<int32_t>(ts);
    t.allDataSize = inner * outter;
    t.kAlignFourBytes = round_up_i(k, 8);
    if (mode == AscendC::TopKMode::TOPK_NORMAL) {
        t.kAlignTwoBytes = round_up_i(k, 16);
        t.tmpLocalSize = 16 * inner / its;
        t.innerDataSize = s * inner;
        t.copyUbToUbBlockCount = static_cast<uint32_t>(inner / 4);
        t.sortRepeat = static_cast<uint32_t>(inner / 32);
        t.mrgSortRepeat = inner / 4;
        t.maskOffset = outter * (ts == 2 ? t.kAlignTwoBytes : t.kAlignFourBytes);
        t.maskVreducev2FourBytes = 2 * k;
        t.maskVreducev2TwoBytes = 4 * k;
        t.mrgSortSrc1offset = s;
        t.mrgSortSrc2offset = 2 * s;
        t.mrgSortSrc3offset = 3 * s;
        t.mrgSortTwoQueueSrc1Offset = s;
        t.mrgFourQueueTailPara1 = 2 * inner;
        t.mrgFourQueueTailPara2 = 4 / its;
        if (!isInitIndex) {
            t.srcIndexOffset = 16 * inner / its;
            t.tmpLocalSize = (16 + 4) * inner / its;
        }
        return;
    }
    t.innerDataSize = s * inner * outter;
    t.maskOffset = outter * k;
    t.topkMrgSrc1MaskSizeOffset = t.innerDataSize + (isLargest ? 0 : inner * outter);
    t.tmpLocalSize = t.topkMrgSrc1MaskSizeOffset + static_cast<int32_t>(kTopkSmallMaskBytes) / its;
    if (!isInitIndex) {
        t.topkNSmallSrcIndexOffset = t.tmpLocalSize;
        t.tmpLocalSize += 4 * inner * outter / its;
    }
    if (k <= 16) t.vreduceIdxMask0 = repeat_bits(0b10, 2, k);
    else if (k <= 32) {
        t.vreduceIdxMask0 = 0xAAAAAAAAu;
        t.vreduceIdxMask1 = repeat_bits(0b10, 2, k - 16);
    }
    if (ts == 4) {
        if (k <= 16) t.vreduceValMask0 = repeat_bits(0b01, 2, k);
        else if (k <= 32) {
            t.vreduceValMask0 = repeat_bits(0b01, 2, 16);
            t.vreduceValMask1 = repeat_bits(0b01, 2, k - 16);
        }
        return;
    }
    uint16_t* words[8] = {&t.vreducehalfValMask0, &t.vreducehalfValMask1, &t.vreducehalfValMask2, &t.vreducehalfValMask3,
                          &t.vreducehalfValMask4, &t.vreducehalfValMask5, &t.vreducehalfValMask6, &t.vreducehalfValMask7};
    for (int32_t w = 0; w < 8; ++w) {
        const int32_t left = std::clamp(k - 4 * w, 0, 4);  // structures selected in this 16-bit word
        *words[w] = static_cast<uint16_t>(repeat_bits(0b0001, 4, left));
    }
}

}  // namespace adv
}  // namespace kgen
