// kgen AscendC CPU emulator -- Fill (formerly InitConstValue): set L1 / L0A / L0B memory to one value, dav-2201.
//
// Documented rules followed (AscendC Fill with InitConstValueParams):
//  * Fill(dst, {repeatTimes, blockNum, dstGap, initValue}) writes initValue into blockNum blocks per repeat,
//    repeat r starting r * (blockNum + dstGap) blocks after dst. A block is 32 bytes in L1 (A1/B1) and one
//    512-byte fractal in L0A/L0B (A2/B2); dstGap counts the same blocks. repeatTimes = 0 or blockNum = 0 is
//    a no-op.
//  * Only L1, L0A and L0B tensors (`wrong-position`); L0A/L0B start on 512 bytes, L1 on 32 bytes
//    (`cube-misaligned`). L1 runs on MTE2, L0A/L0B on MTE1.
//  * Element types on dav-2201: int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float (`fill-dtype`).
//  * InitConstValue(dst, params) is the older name of the same call.
//
// @api Fill InitConstValue InitConstValueParams
#pragma once
#include <type_traits>

#include "kgen_sim/cube/layout.h"

namespace AscendC {

template <typename T>
struct InitConstValueParams {
    InitConstValueParams() = default;
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = T(0);
};

template <typename T, typename U = T>
inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
    using namespace kgen;
    const char* api = "Fill";
    static_assert(std::is_same_v<T, U>, "Fill: the InitConstValueParams value type must be the tensor's element type");
    cube::require_mem(dst, api, "the destination", {Mem::L1, Mem::L0A, Mem::L0B}, "A1/B1 (L1), A2 (L0A) or B2 (L0B)");
    constexpr bool ok_type = (sizeof(T) == 2 || sizeof(T) == 4) && !std::is_same_v<T, bool>;
    if (!ok_type)
        fail("fill-dtype", "%s: dav-2201 fills 2- and 4-byte types (int16/uint16/half/bfloat16/int32/uint32/float); this is a %zu-byte type",
             api, sizeof(T));
    const bool l1 = dst.mem() == Mem::L1;
    const uint32_t unit = l1 ? ONE_BLK : cube::FRACTAL_BYTES;
    cube::require_align(dst, api, "the destination", unit);
    if (p.repeatTimes == 0 || p.blockNum == 0) return;
    const uint64_t epb = unit / sizeof(T);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t start = uint64_t(r) * (uint64_t(p.blockNum) + p.dstGap) * epb, n = uint64_t(p.blockNum) * epb;
        dst.check(start, n, api);
        for (uint64_t i = 0; i < n; ++i) dst.raw()[start + i] = p.initValue;
    }
    trace("Fill", l1 ? Pipe::MTE2 : Pipe::MTE1, uint64_t(p.repeatTimes) * p.blockNum * unit, p.repeatTimes, 0, 0, sizeof(T));
}

template <typename T, typename U = T>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
    Fill(dst, p);
}

}  // namespace AscendC
