// kgen AscendC CPU emulator -- TransDataTo5HD: gather the same position of 16 data blocks into new blocks
// (a 16-block transpose; NCHW -> NC1HWC0).
//
// Documented rules followed (dav-2201 TransDataTo5HD page):
//  * 16 source and 16 destination addresses (32-byte aligned UB addresses; NCHW_CONV_ADDR_LIST_SIZE = 16),
//    given as uint64_t arrays of GetPhyAddr values, as two LocalTensor<uint64_t> holding them, or as
//    arrays of 16 LocalTensors. Types: 1-, 2- and 4-byte (int8/uint8, int16/uint16/half, int32/uint32/float).
//  * One repeat reads one 32-byte block at each source address and writes one block at each destination:
//      - 2-byte types: destination block j holds element j of source blocks 0..15 (a 16 x 16 transpose);
//      - 4-byte types: element j of source blocks 0..7 goes to destination block 2j, of blocks 8..15 to
//        block 2j+1 (16 values of one position make two blocks: C0 = 16);
//      - 1-byte types: element j (+16 with srcHighHalf) of source blocks 0..15 fills the low half of
//        destination block j (the high half with dstHighHalf); the other half is left as it was (C0 = 32
//        takes two calls).
//  * TransDataTo5HDParams{dstHighHalf, srcHighHalf, repeatTimes (0..255; 0 = no operation), dstRepStride,
//    srcRepStride (in blocks)}: repeat r reads at each source address + r * srcRepStride blocks and writes
//    at each destination + r * dstRepStride blocks -- except that with repeatTimes = 1 the one repeat is at
//    + the strides (the page: set the strides to 0 to start at the listed addresses).
//  * Addresses must be 32-byte aligned (`ub-misaligned`) and every block inside UB (`ub-out-of-bounds`).
//    Each repeat reads all 16 source blocks before it writes.
//
// @api TransDataTo5HD TransDataTo5HDParams NCHW_CONV_ADDR_LIST_SIZE TransDataTo5HDImpl
#pragma once
#include <cstdint>
#include <cstring>

#include "kgen_sim/tensor.h"

namespace AscendC {

inline constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() = default;
    constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                                   const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn), dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace kgen {
namespace trans5hd {

/// Check one 32-byte block at UB byte address `a`.
inline void block_ok(uint64_t a, const char* which, int i) {
    if (a % ONE_BLK)
        fail("ub-misaligned", "TransDataTo5HD: %s address %d (UB byte %llu) is not 32-byte aligned", which, i, (unsigned long long)a);
    if (a + ONE_BLK > UB_SIZE)
        fail("ub-out-of-bounds", "TransDataTo5HD: %s block %d at UB byte %llu runs past the %u-byte Unified Buffer", which, i,
             (unsigned long long)a, UB_SIZE);
}

template <typename T>
inline void run(const uint64_t* dst, const uint64_t* src, const AscendC::TransDataTo5HDParams& p) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 1-, 2- or 4-byte types");
    trace("TransDataTo5HD", Pipe::V, uint64_t(p.repeatTimes) * 512, p.repeatTimes, 0, 0, sizeof(T));
    if (p.repeatTimes == 0) return;
    uint8_t* ub = core().mem_base(Mem::UB);
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t k = p.repeatTimes == 1 ? 1 : r;   // one repeat: at + the strides, as documented
        uint8_t in[16][ONE_BLK];
        for (int i = 0; i < 16; ++i) {
            const uint64_t a = src[i] + k * p.srcRepStride * ONE_BLK;
            block_ok(a, "source", i);
            std::memcpy(in[i], ub + a, ONE_BLK);
        }
        for (int j = 0; j < 16; ++j) block_ok(dst[j] + k * p.dstRepStride * ONE_BLK, "destination", j);
        auto out = [&](int j) { return ub + dst[j] + k * p.dstRepStride * ONE_BLK; };
        if constexpr (sizeof(T) == 2) {
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) std::memcpy(out(j) + 2 * i, in[i] + 2 * j, 2);
        } else if constexpr (sizeof(T) == 4) {
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 16; ++i) std::memcpy(out(2 * j + i / 8) + 4 * (i % 8), in[i] + 4 * j, 4);
        } else {
            const int s0 = p.srcHighHalf ? 16 : 0, d0 = p.dstHighHalf ? 16 : 0;
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) out(j)[d0 + i] = in[i][s0 + j];
        }
    }
}

}  // namespace trans5hd
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams) {
    kgen::trans5hd::run<T>(dstList, srcList, nchwconvParams);
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                           const TransDataTo5HDParams& nchwconvParams) {
    dst.check(0, NCHW_CONV_ADDR_LIST_SIZE, "TransDataTo5HD (dst address list)");
    src.check(0, NCHW_CONV_ADDR_LIST_SIZE, "TransDataTo5HD (src address list)");
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) { d[i] = dst.GetValue(i); s[i] = src.GetValue(i); }
    kgen::trans5hd::run<T>(d, s, nchwconvParams);
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& nchwconvParams) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dstList[i].live("TransDataTo5HD");
        srcList[i].live("TransDataTo5HD");
        d[i] = dstList[i].GetPhyAddr();
        s[i] = srcList[i].GetPhyAddr();
    }
    kgen::trans5hd::run<T>(d, s, nchwconvParams);
}

// The library's internal entry points, which some published kernels call directly: address lists as
// uint64_t values or as UB pointers. A UB "pointer" here is what (__ubuf__ T*)tensor.GetPhyAddr() gives
// on the emulator: the byte offset in UB, carried in a pointer.
template <typename T>
inline void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE], __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& transDataTo5HDParams) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = reinterpret_cast<uintptr_t>(dstList[i]);
        s[i] = reinterpret_cast<uintptr_t>(srcList[i]);
    }
    kgen::trans5hd::run<T>(d, s, transDataTo5HDParams);
}
template <typename T>
inline void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& transDataTo5HDParams) {
    kgen::trans5hd::run<T>(dstList, srcList, transDataTo5HDParams);
}

}  // namespace AscendC
