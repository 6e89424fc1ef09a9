// kgen AscendC CPU emulator -- the per-repeat reductions under their CANN 9.1 names, selected by a
// ReduceType template argument: ReduceRepeat, ReduceDataBlock, ReducePairElem.
//
// Documented rules followed (ReduceRepeat / ReduceDataBlock / ReducePairElem pages; the examples'
// READMEs state that these are the 9.1 names of WholeReduce*, BlockReduce* and PairReduceSum):
//  * template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>; dst is a
//    LocalTensor<T>, src a LocalTensor<U> (U deduced from src). On dav-2201 (Atlas A2/A3) both are
//    half or float and U must equal T (other pairs are Atlas 350 only): a compile error here.
//  * Argument order for all three: (dst, src, mask | mask[], repeatTime, dstRepStride, srcBlkStride,
//    srcRepStride) -- the mask comes BEFORE repeatTime, unlike the old BlockReduce*/PairReduceSum.
//  * ReduceRepeat<SUM|MAX|MIN>(..., ReduceOrder order = ORDER_VALUE_INDEX): one result per repeat,
//    as WholeReduceSum / WholeReduceMax / WholeReduceMin (the order only matters for MAX / MIN:
//    value and in-repeat index, and they set the max/min register GetReduceRepeatMaxMinSpr reads).
//  * ReduceDataBlock<SUM|MAX|MIN>: one result per 32-byte block, as BlockReduceSum/Max/Min.
//  * ReducePairElem<SUM>: sums of adjacent pairs, as PairReduceSum (only SUM is documented).
// The rules of the old names (alignment, strides, masks, rounding) are in reduce_repeat.h; these
// forms call the same code, so a mistake reports the new name.
//
// @api ReduceRepeat ReduceDataBlock ReducePairElem ReduceType
#pragma once
#include <type_traits>

#include "kgen_sim/reduce_repeat.h"

namespace AscendC {

enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

}  // namespace AscendC

namespace kgen {
namespace red {

template <AscendC::ReduceType R, typename T, typename U>
constexpr void check_forms() {
    static_assert(std::is_same_v<T, U>, "ReduceRepeat/ReduceDataBlock/ReducePairElem: on dav-2201 (Atlas A2/A3) dst and "
                                        "src have the same type (half or float); mixed types are Atlas 350 only");
    check_type<T>();
}

template <typename T, bool isSetMask, typename M>
inline Lanes lanes_for(const char* api, M mask, uint32_t* rep) {
    if constexpr (std::is_pointer_v<M>) return lanes_of<T, isSetMask>(api, mask, rep);
    else return lanes_of<T, isSetMask>(api, int64_t(mask), rep);
}

template <AscendC::ReduceType R, typename T, bool isSetMask, typename M>
inline void reduce_repeat(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask, int32_t repeatTime,
                          int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride, AscendC::ReduceOrder order) {
    constexpr const char* api = R == AscendC::ReduceType::SUM ? "ReduceRepeat<SUM>"
                                : R == AscendC::ReduceType::MAX ? "ReduceRepeat<MAX>" : "ReduceRepeat<MIN>";
    uint32_t rep = repeat_arg(api, repeatTime);
    Lanes L = lanes_for<T, isSetMask>(api, mask, &rep);
    uint32_t dRep = stride_arg(api, "dstRepStride", dstRepStride);
    uint32_t sBlk = stride_arg(api, "srcBlkStride", srcBlkStride);
    uint32_t sRep = stride_arg(api, "srcRepStride", srcRepStride);
    if constexpr (R == AscendC::ReduceType::SUM) whole_sum(api, dst, src, L, rep, dRep, sBlk, sRep);
    else whole_extreme<T, R == AscendC::ReduceType::MAX>(api, dst, src, L, rep, dRep, sBlk, sRep, order);
}

template <AscendC::ReduceType R, typename T, bool isSetMask, typename M>
inline void reduce_data_block(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask,
                              int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {
    constexpr const char* api = R == AscendC::ReduceType::SUM ? "ReduceDataBlock<SUM>"
                                : R == AscendC::ReduceType::MAX ? "ReduceDataBlock<MAX>" : "ReduceDataBlock<MIN>";
    uint32_t rep = repeat_arg(api, repeatTime);
    Lanes L = lanes_for<T, isSetMask>(api, mask, &rep);
    constexpr int kind = R == AscendC::ReduceType::SUM ? 0 : R == AscendC::ReduceType::MAX ? 1 : 2;
    block_reduce(api, kind, dst, src, L, rep, stride_arg(api, "dstRepStride", dstRepStride),
                 stride_arg(api, "srcBlkStride", srcBlkStride), stride_arg(api, "srcRepStride", srcRepStride));
}

template <typename T, bool isSetMask, typename M>
inline void reduce_pair_elem(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, M mask,
                             int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {
    const char* api = "ReducePairElem<SUM>";
    uint32_t rep = repeat_arg(api, repeatTime);
    Lanes L = lanes_for<T, isSetMask>(api, mask, &rep);
    pair_sum(api, dst, src, L, rep, stride_arg(api, "dstRepStride", dstRepStride),
             stride_arg(api, "srcBlkStride", srcBlkStride), stride_arg(api, "srcRepStride", srcRepStride));
}

}  // namespace red
}  // namespace kgen

namespace AscendC {

#define KGEN_REDUCE_TYPE_FORMS(MASKT)                                                                                 \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                   \
    inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASKT mask, const int32_t repeatTime, \
                             const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,       \
                             ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                                     \
        kgen::red::check_forms<reduceType, T, U>();                                                                   \
        kgen::red::reduce_repeat<reduceType, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,     \
                                                           srcRepStride, order);                                       \
    }                                                                                                                 \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                   \
    inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASKT mask,                     \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,      \
                                const int32_t srcRepStride) {                                                          \
        kgen::red::check_forms<reduceType, T, U>();                                                                   \
        kgen::red::reduce_data_block<reduceType, T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, \
                                                               srcRepStride);                                          \
    }                                                                                                                 \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                   \
    inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, MASKT mask,                      \
                               const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,       \
                               const int32_t srcRepStride) {                                                           \
        static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM is documented");          \
        kgen::red::check_forms<reduceType, T, U>();                                                                   \
        kgen::red::reduce_pair_elem<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride); \
    }
KGEN_REDUCE_TYPE_FORMS(const uint64_t*)
KGEN_REDUCE_TYPE_FORMS(const int32_t)
#undef KGEN_REDUCE_TYPE_FORMS

}  // namespace AscendC
