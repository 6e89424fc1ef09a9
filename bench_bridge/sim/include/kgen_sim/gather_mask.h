// kgen AscendC CPU emulator -- GatherMask: compact the elements a bit pattern selects (dav-2201).
//
// Documented rules followed (GatherMask page, Atlas A2):
//  * GatherMask<T, U>(dst, src0, src1Pattern (LocalTensor<U>), reduceMode, mask, GatherMaskParams,
//    rsvdCnt) and GatherMask<T>(dst, src0, src1Pattern (uint8_t 1..7), ...). T: int16_t, uint16_t,
//    half, bfloat16_t with U = uint16_t; int32_t, uint32_t, float with U = uint32_t.
//  * Built-in patterns, per repeat, by element index j: 1 even j, 2 odd j, 3 j % 4 == 0, 4 j % 4 == 1,
//    5 j % 4 == 2, 6 j % 4 == 3, 7 every element (REDUCEV2_MODE_ONE .. REDUCEV2_MODE_SEVEN). A user
//    pattern selects element j when bit j % (8 * sizeof(U)) of pattern word j / (8 * sizeof(U)) is 1;
//    it is consumed continuously within a repeat, and each repeat starts src1RepeatStride blocks
//    further (0: the same pattern every repeat). src1RepeatStride has no effect with built-in patterns.
//  * reduceMode false (normal): each repeat covers 256 bytes (256 / sizeof(T) elements) and mask is
//    ignored. reduceMode true (counter, A2 "configuration 1"): each repeat covers `mask` elements.
//    Element j of repeat r is read at src0 + r * src0RepeatStride blocks + (j / e) * src0BlockStride
//    blocks + j % e (e = elements per 32-byte block).
//  * The selected elements are written one after the other to dst (across repeats); rsvdCnt returns
//    their number (also GetGatherMaskRemainCount() and AscendCUtils::GetRsvdCnt()). The core is left in normal mask mode.
//  * dst and src0 start 32-byte aligned; a pattern value outside 1..7 is `gathermask-pattern`; reads
//    and writes beyond the tensors are `ub-out-of-bounds`.
//
// @api GatherMask GatherMaskParams GatherMaskMode REDUCEV2_MODE_ONE GetGatherMaskRemainCount
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/ascendc_utils.h"
#include "kgen_sim/tensor.h"
#include "kgen_sim/vec_engine.h"
#include "kgen_sim/vec_forms.h"

namespace AscendC {

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;  // dav-2201
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;       // CANN's own spelling

constexpr uint32_t REDUCEV2_MODE_ONE = 1;
constexpr uint32_t REDUCEV2_MODE_TWO = 2;
constexpr uint32_t REDUCEV2_MODE_THREE = 3;
constexpr uint32_t REDUCEV2_MODE_FOUR = 4;
constexpr uint32_t REDUCEV2_MODE_FIVE = 5;
constexpr uint32_t REDUCEV2_MODE_SIX = 6;
constexpr uint32_t REDUCEV2_MODE_SEVEN = 7;

struct GatherMaskParams {
    GatherMaskParams() = default;
    GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                     const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 8;
};

}  // namespace AscendC

namespace kgen {

namespace gm {

template <class T, class Sel>
inline uint64_t gather_mask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, bool counter, uint32_t mask,
                            const AscendC::GatherMaskParams& p, Sel selected) {
    static_assert(one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                  "GatherMask supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float on dav-2201");
    const char* api = "GatherMask";
    dst.check_aligned(api);
    src.check_aligned(api);
    constexpr uint32_t e = ONE_BLK / sizeof(T);
    const uint32_t per = counter ? mask : ONE_REP / sizeof(T);
    uint64_t out = 0;
    for (uint32_t r = 0; r < p.repeatTimes; ++r)
        for (uint32_t j = 0; j < per; ++j) {
            if (!selected(r, j)) continue;
            const uint64_t at = (uint64_t(r) * p.src0RepeatStride + uint64_t(j / e) * p.src0BlockStride) * e + j % e;
            src.check(at, 1, api);
            dst.check(out, 1, api);
            dst.raw()[out++] = src.raw()[at];
        }
    AscendC::SetMaskNorm();
    gather_mask_count() = out;
    trace(api, Pipe::V, uint64_t(p.repeatTimes) * ONE_REP, p.repeatTimes);
    return out;
}

}  // namespace gm
}  // namespace kgen

namespace AscendC {

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
    static_assert(sizeof(U) == sizeof(T) && std::is_unsigned_v<U>,
                  "GatherMask: the pattern type is uint16_t for 2-byte data and uint32_t for 4-byte data");
    constexpr uint32_t bits = 8 * sizeof(U);
    const uint32_t step = uint32_t(gatherMaskParams.src1RepeatStride) * (kgen::ONE_BLK / sizeof(U));
    rsvdCnt = kgen::gm::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, [&](uint32_t r, uint32_t j) {
        const uint64_t word = uint64_t(r) * step + j / bits;
        src1Pattern.check(word, 1, "GatherMask");
        return ((src1Pattern.raw()[word] >> (j % bits)) & 1u) != 0;
    });
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern, const bool reduceMode,
                       const uint32_t mask, const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
    if (src1Pattern < 1 || src1Pattern > 7)
        kgen::fail("gathermask-pattern", "GatherMask: built-in pattern %u is not one of 1..7", unsigned(src1Pattern));
    rsvdCnt = kgen::gm::gather_mask(dst, src0, reduceMode, mask, gatherMaskParams, [&](uint32_t, uint32_t j) {
        switch (src1Pattern) {
            case 1: return j % 2 == 0;
            case 2: return j % 2 == 1;
            case 7: return true;
            default: return j % 4 == uint32_t(src1Pattern - 3);
        }
    });
}

/// The element count kept by this core's last GatherMask.
inline int64_t GetGatherMaskRemainCount() { return static_cast<int64_t>(kgen::gather_mask_count()); }

}  // namespace AscendC
