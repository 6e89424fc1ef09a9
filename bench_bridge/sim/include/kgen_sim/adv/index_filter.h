// kgen AscendC CPU emulator -- Arange (arithmetic progression) and DropOut (mask filter).
//
// Documented rules followed (dav-2201 Arange and DropOut pages):
//  * Arange<T>(dst, T firstValue, T diffValue, int32_t count): dst[i] = firstValue + i * diffValue
//    for i < count (count > 0, diffValue >= 0), T in int16_t, half, int32_t, float. The NPU builds it in
//    documented stages, which fix where rounding happens: the first 32-byte block (B = 32 / sizeof(T)
//    values) is set one by one (firstValue + diffValue * i, in float for half, in T otherwise); every
//    further block of the first 256-byte repeat is the previous block plus step(B), and every further
//    repeat (R = 256 / sizeof(T) values) the previous repeat plus step(R), each Adds rounding to T;
//    step(n) = T(diffValue * n) (in float, or in int64 for integer T).
//    No temporary buffer (GetArangeMaxMinTmpSize: 0, 0).
//  * DropOut<T, isInitBitMode, dropOutMode>(dst, src, uint8 mask[, sharedTmpBuffer], float keepProb,
//    DropOutShapeInfo {firstAxis, srcLastAxis, maskLastAxis}): src/dst are [firstAxis, srcLastAxis];
//    a kept element is src * (1 / keepProb) (a Muls by the rounded reciprocal), a dropped one 0.
//    Byte mode: mask byte c of the row (non-zero keeps). Bit mode: bit (c % 8) of mask byte c / 8 of the
//    row, least significant bit first (the official example's golden reads the bits that way; the
//    page's illustration draws the byte most-significant bit first). The mask row stride is
//    maskLastAxis (the padding bytes are "dirty" and ignored). dropOutMode: 1/2 byte mode, 3/4 bit mode,
//    0 inferred: maskLastAxis >= srcLastAxis is byte mode, otherwise bit mode.
//    keepProb must be in (0, 1) (`dropout-param` error). T: half or float.
//    Temporary bytes (GetDropOutMaxMinTmpSize): min 512, max max(2 * elements * 4, 512).
//
// Precision: Arange and DropOut reproduce the documented operation order (exact on the emulator).
//
// @api Arange DropOut DropOutShapeInfo
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/adv/adv_common.h"

namespace AscendC {
struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
}  // namespace AscendC

namespace kgen {
namespace adv {

constexpr uint32_t dropout_min_tmp() { return 2 * 256; }
constexpr uint32_t dropout_max_tmp(uint64_t elements) {
    return 2 * elements * 4 > 512 ? static_cast<uint32_t>(2 * elements * 4) : 512;
}

/// One Adds lane: a + b rounded to T (integers wrap like the hardware's integer add).
template <class T> inline T arange_add(T a, float b) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(a) + static_cast<int64_t>(b));
    else return T(static_cast<float>(a) + b);
}

template <class T>
inline void arange(const AscendC::LocalTensor<T>& dst, T first, T diff, int32_t count) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, float>,
                  "Arange supports int16_t, half, int32_t and float on dav-2201");
    const char* api = "Arange";
    if (count <= 0) fail("arange-param", "%s: count must be greater than 0 (got %d)", api, count);
    if (static_cast<float>(diff) < 0) fail("arange-param", "%s: diffValue must be >= 0", api);
    operand(api, dst, uint32_t(count));
    T* o = dst.raw();
    const uint32_t n = uint32_t(count), B = 32 / sizeof(T), R = 256 / sizeof(T);
    auto step = [&](uint32_t k) -> T {
        if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(diff) * k);
        else return T(static_cast<float>(diff) * static_cast<float>(k));
    };
    for (uint32_t i = 0; i < n && i < B; ++i) {
        if constexpr (std::is_integral_v<T>) o[i] = static_cast<T>(first + diff * static_cast<T>(i));
        else o[i] = T(static_cast<float>(first) + static_cast<float>(diff) * static_cast<float>(i));
    }
    const T sb = step(B), sr = step(R);
    for (uint32_t i = B; i < n && i < R; ++i) o[i] = arange_add(o[i - B], static_cast<float>(sb));
    for (uint32_t i = R; i < n; ++i) o[i] = arange_add(o[i - R], static_cast<float>(sr));
    trace_call(api, uint64_t(n) * sizeof(T), 3);
}

template <class T>
inline void dropout(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>& mask,
                    const AscendC::LocalTensor<uint8_t>* tmp, float keepProb, const AscendC::DropOutShapeInfo& info,
                    uint32_t mode) {
    static_assert(hf_v<T>, "DropOut supports half and float on dav-2201");
    const char* api = "DropOut";
    if (!(keepProb > 0.0f && keepProb < 1.0f)) fail("dropout-param", "%s: keepProb must be in (0, 1) (got %g)", api, keepProb);
    const uint32_t rows = info.firstAxis, cols = info.srcLastAxis, ms = info.maskLastAxis;
    if (!rows || !cols || !ms) fail("dropout-param", "%s: DropOutShapeInfo axes must be > 0 (%u, %u, %u)", api, rows, cols, ms);
    if (mode > 4) fail("dropout-param", "%s: dropOutMode %u is not one of 0..4", api, mode);
    const bool bit = mode == 3 || mode == 4 || (mode == 0 && ms < cols);
    if (bit ? uint64_t(ms) * 8 < cols : ms < cols)
        fail("dropout-param", "%s: a mask row of %u bytes cannot cover %u elements in %s mode", api, ms, cols,
             bit ? "bit" : "byte");
    const uint64_t n = uint64_t(rows) * cols, nm = uint64_t(rows) * ms;
    operand(api, dst, n);
    operand(api, src, n);
    operand(api, mask, nm);
    if (lo_of(dst) != lo_of(src)) no_overlap(api, dst, n, src, n, "the source and destination tensors");
    Tmp t{tmp, dropout_min_tmp(), dropout_max_tmp(n)};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}, {lo_of(mask), hi_of(mask, nm)}});
    const T scale = T(1.0f / keepProb);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
            const uint8_t* m = mask.raw() + uint64_t(r) * ms;
            const bool keep = bit ? ((m[c / 8] >> (c % 8)) & 1) : m[c] != 0;
            const uint64_t i = uint64_t(r) * cols + c;
            dst.raw()[i] = keep ? T(static_cast<float>(src.raw()[i]) * static_cast<float>(scale)) : T(0.0f);
        }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 3);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
    kgen::adv::arange<T>(dst, firstValue, diffValue, count);
}

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info) {
    kgen::adv::dropout<T>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info, dropOutMode);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const float keepProb, const DropOutShapeInfo& info) {
    kgen::adv::dropout<T>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info, dropOutMode);
}

}  // namespace AscendC
