// kgen AscendC CPU emulator -- L1 -> L0A/L0B loads: LoadData (2D), LoadDataWithTranspose.
//
// Documented rules followed (AscendC Load2D / LoadDataWithTranspose, dav-2201):
//  * LoadData(dst, src, LoadData2DParams) moves `repeatTimes` fractals of 512 bytes (16 x C0
//    elements, C0 = 32 B / sizeof(T)). Repeat i reads fractal  startIndex + i * srcStride  of the
//    source and writes fractal  i * (1 + dstGap)  of the destination (all in 512-byte fractal units;
//    dstGap is the gap between the end of one destination fractal and the start of the next).
//    Paths: A1 -> A2, B1 -> B2 (MTE1) and GM -> A1/B1/A2/B2 (MTE2).
//  * ifTranspose transposes each 16 x 16 fractal on the way (2-byte types only; other types use
//    LoadDataWithTranspose): dst(r, c) = src(c, r). Other widths are `loaddata-transpose-dtype`.
//  * LoadDataWithTranspose(dst, src, LoadData2dTransposeParams): each repeat transposes one square:
//    2-byte types: one 16 x 16 fractal; 1-byte types: two consecutive 16 x 32 source fractals stacked
//    into a 32 x 32 square, transposed, split back into two 16 x 32 fractals. The square of repeat i
//    starts at square  startIndex + i * srcStride  (units: the square), its first destination fractal
//    at fractal  i * (1 + dstGap)  and the second one  1 + dstFracGap  fractals later.
//    int4b_t: four consecutive 16 x 64 fractals form a 64 x 64 square, transposed, split back into four
//    16 x 64 fractals, each 1 + dstFracGap fractals after the previous one (square unit for srcStride:
//    64 x 64 x 0.5 bytes). 4-byte types: two consecutive 16 x 8 fractals side by side form a 16 x 16
//    square, transposed, split back into its left and right 16 x 8 halves (the first at the repeat's
//    fractal, the second 1 + dstFracGap fractals later).
//  * A2 / B2 destinations start on a 512-byte fractal boundary (`cube-misaligned`); L1 sources on 32 B.
//
// @api LoadDataWithSparse LoadData LoadData2DParams LoadData2dParams LoadDataWithTranspose LoadData2dTransposeParams LoadData2DParamsV2
#pragma once
#include <cstring>

#include "kgen_sim/cube/layout.h"

namespace AscendC {

struct LoadData2DParams {
    LoadData2DParams() = default;
    LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn, uint16_t dstGapIn,
                     bool ifTransposeIn, uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = false;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() = default;
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

/// LoadData 2D v2 parameters (an Ascend 950 / dav-3510 form). Declared so that dav-2201 code that names the
/// struct in a branch it never runs still compiles; LoadData with it is `cube-not-emulated`.
struct LoadData2DParamsV2 {
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};

}  // namespace AscendC

namespace kgen::cube {

/// Copy one 512-byte fractal, transposing a 16 x 16 block of 2-byte elements when asked.
template <typename T>
inline void copy_fractal(T* d, const T* s, bool transpose) {
    constexpr uint32_t n = FRACTAL_BYTES / sizeof(T);
    if constexpr (sizeof(T) == 2) {
        if (transpose) {
            T tmp[n];
            for (uint32_t r = 0; r < BLOCK; ++r)
                for (uint32_t c = 0; c < BLOCK; ++c) tmp[r * BLOCK + c] = s[c * BLOCK + r];
            std::memcpy(static_cast<void*>(d), tmp, FRACTAL_BYTES);
            return;
        }
    }
    (void)transpose;
    std::memcpy(static_cast<void*>(d), s, FRACTAL_BYTES);
}

template <typename T, typename Src>
inline void load2d(const AscendC::LocalTensor<T>& dst, const Src& src, const AscendC::LoadData2DParams& p, Pipe pipe) {
    const char* api = "LoadData";
    constexpr uint32_t F = FRACTAL_BYTES / sizeof(T);
    if (p.ifTranspose && sizeof(T) != 2)
        fail("loaddata-transpose-dtype", "%s: ifTranspose transposes 16x16 fractals of 2-byte types only; this is a %zu-byte type "
             "(use LoadDataWithTranspose)", api, sizeof(T));
    if (p.repeatTimes == 0) warn("loaddata-zero-repeat", "%s with repeatTimes = 0 moves nothing", api);
    for (uint32_t i = 0; i < p.repeatTimes; ++i) {
        const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * F;
        const uint64_t d = uint64_t(i) * (1u + p.dstGap) * F;
        src.check_read(s, F, api);
        dst.check(d, F, api);
        copy_fractal(dst.raw() + d, src.raw() + s, p.ifTranspose);
    }
    trace("LoadData", pipe, uint64_t(p.repeatTimes) * FRACTAL_BYTES, p.repeatTimes, 0, 0, sizeof(T));
}

}  // namespace kgen::cube

namespace AscendC {

/// L1 -> L0A/L0B (A1 -> A2, B1 -> B2), fractal by fractal.
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
    using namespace kgen;
    if constexpr (is_int4_v<T>) {  // whole 512-byte fractals: the same bytes as int8_t
        LoadData(dst.template ReinterpretCast<int8_t>(), src.template ReinterpretCast<int8_t>(), p);
        return;
    }
    cube::require_mem(dst, "LoadData", "the destination", {Mem::L0A, Mem::L0B}, "A2 (L0A) or B2 (L0B)");
    cube::require_mem(src, "LoadData", "the source", {Mem::L1}, "A1/B1 (L1)");
    cube::require_align(dst, "LoadData", "the destination", cube::FRACTAL_BYTES);
    cube::require_align(src, "LoadData", "the source", ONE_BLK);
    cube::load2d(dst, src, p, Pipe::MTE1);
}

/// GM -> A1/B1/A2/B2, fractal by fractal (the GM data is already in fractal order).
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) {
    using namespace kgen;
    if constexpr (is_int4_v<T>) {
        GlobalTensor<int8_t> bytes;
        if (src.bounded()) bytes.SetGlobalBuffer(reinterpret_cast<int8_t*>(src.raw()), (src.GetSize() + 1) / 2);
        else bytes.SetGlobalBuffer(reinterpret_cast<int8_t*>(src.raw()));
        LoadData(dst.template ReinterpretCast<int8_t>(), bytes, p);
        return;
    }
    cube::require_mem(dst, "LoadData", "the destination", {Mem::L1, Mem::L0A, Mem::L0B}, "A1/B1 (L1), A2 (L0A) or B2 (L0B)");
    cube::require_align(dst, "LoadData", "the destination", dst.mem() == Mem::L1 ? ONE_BLK : cube::FRACTAL_BYTES);
    cube::load2d(dst, src, p, Pipe::MTE2);
}

/// L1 -> L0B of a 4:2 densified int8 B and its index matrix (LoadDataWithSparse page): repeat i copies B fractal
/// startIndex + i (512 bytes) to fractal i of dst and index fractal startIndex + i (128 bytes: 16 rows x 32
/// two-bit indices) to fractal i of the cube's index buffer, which MmadWithSparse reads. Contiguous fractals
/// only: the other LoadData2dParams fields are not used.
template <typename T = int8_t, typename U = uint8_t>
inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& idx,
                               const LoadData2DParams& p) {
    static_assert(std::is_same_v<T, int8_t> && std::is_same_v<U, uint8_t>, "LoadDataWithSparse: dst/src int8_t, idx uint8_t");
    using namespace kgen;
    const char* api = "LoadDataWithSparse";
    cube::require_mem(dst, api, "the destination", {Mem::L0B}, "B2 (L0B)");
    cube::require_mem(src, api, "the source", {Mem::L1}, "B1 (L1)");
    cube::require_mem(idx, api, "the index matrix", {Mem::L1}, "B1 (L1)");
    cube::require_align(dst, api, "the destination", cube::FRACTAL_BYTES);
    cube::require_align(src, api, "the source", ONE_BLK);
    cube::require_align(idx, api, "the index matrix", ONE_BLK);
    std::vector<uint8_t>& buf = cube::sparse_index_buffer();
    constexpr uint32_t F = cube::FRACTAL_BYTES, IF = 128;
    if (uint64_t(p.repeatTimes) * IF > buf.size())
        fail("loaddata-sparse-index", "%s: %u index fractals do not fit the index buffer (%zu bytes, a quarter of L0B)", api, p.repeatTimes,
             buf.size());
    for (uint32_t i = 0; i < p.repeatTimes; ++i) {
        const uint64_t s = uint64_t(p.startIndex + i) * F, si = uint64_t(p.startIndex + i) * IF;
        src.check_read(s, F, api);
        idx.check_read(si, IF, api);
        dst.check(uint64_t(i) * F, F, api);
        std::memcpy(static_cast<void*>(dst.raw() + uint64_t(i) * F), src.raw() + s, F);
        std::memcpy(buf.data() + uint64_t(i) * IF, idx.raw() + si, IF);
    }
    trace(api, Pipe::MTE1, uint64_t(p.repeatTimes) * (F + IF), p.repeatTimes, 0, 0, sizeof(T));
}

/// L1 -> L0A/L0B with every square transposed (see the rules at the top of this file).
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p) {
    using namespace kgen;
    const char* api = "LoadDataWithTranspose";
    cube::require_mem(dst, api, "the destination", {Mem::L0A, Mem::L0B}, "A2 (L0A) or B2 (L0B)");
    cube::require_mem(src, api, "the source", {Mem::L1}, "A1/B1 (L1)");
    cube::require_align(dst, api, "the destination", cube::FRACTAL_BYTES);
    constexpr uint32_t F = cube::FRACTAL_BYTES / sizeof(T);
    if constexpr (sizeof(T) == 2) {
        for (uint32_t i = 0; i < p.repeatTimes; ++i) {
            const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * F;
            const uint64_t d = uint64_t(i) * (1u + p.dstGap) * F;
            src.check_read(s, F, api);
            dst.check(d, F, api);
            cube::copy_fractal(dst.raw() + d, src.raw() + s, true);
        }
    } else if constexpr (sizeof(T) == 1 && !is_int4_v<T>) {
        // a square is two 16 x 32 fractals stacked: 32 x 32 bytes
        for (uint32_t i = 0; i < p.repeatTimes; ++i) {
            const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * 2 * F;
            const uint64_t d0 = uint64_t(i) * (1u + p.dstGap) * F;
            const uint64_t d1 = d0 + (1u + uint64_t(p.dstFracGap)) * F;
            src.check_read(s, 2 * F, api);
            dst.check(d0, F, api);
            dst.check(d1, F, api);
            T sq[32 * 32];
            for (uint32_t r = 0; r < 32; ++r)
                for (uint32_t c = 0; c < 32; ++c) sq[r * 32 + c] = src.raw()[s + c * 32 + r];
            std::memcpy(static_cast<void*>(dst.raw() + d0), sq, F);
            std::memcpy(static_cast<void*>(dst.raw() + d1), sq + F, F);
        }
    } else if constexpr (sizeof(T) == 4) {
        // a square is two consecutive 16 x 8 fractals side by side: 16 x 16 elements
        for (uint32_t i = 0; i < p.repeatTimes; ++i) {
            const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * 2 * F;
            const uint64_t d0 = uint64_t(i) * (1u + p.dstGap) * F;
            const uint64_t d1 = d0 + (1u + uint64_t(p.dstFracGap)) * F;
            src.check_read(s, 2 * F, api);
            dst.check(d0, F, api);
            dst.check(d1, F, api);
            T sq[16 * 16];  // square(r, c) = fractal c / 8, row r, column c % 8
            for (uint32_t r = 0; r < 16; ++r)
                for (uint32_t c = 0; c < 16; ++c) sq[r * 16 + c] = src.raw()[s + (c / 8) * F + r * 8 + c % 8];
            // transposed square t(r, c) = sq(c, r), split back into its left and right 16 x 8 halves
            for (uint32_t r = 0; r < 16; ++r)
                for (uint32_t c = 0; c < 16; ++c) dst.raw()[(c < 8 ? d0 : d1) + r * 8 + c % 8] = sq[c * 16 + r];
        }
    } else if constexpr (is_int4_v<T>) {
        // a square is four 16 x 64 fractals stacked: 64 x 64 elements of 4 bits (2 KB)
        constexpr uint32_t E = cube::fractal_elems<T>();  // 1024 elements per fractal
        for (uint32_t i = 0; i < p.repeatTimes; ++i) {
            const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * 4 * E;
            const uint64_t d0 = uint64_t(i) * (1u + p.dstGap) * E;
            src.check_read(s, 4 * E, api);
            for (uint32_t f = 0; f < 4; ++f) dst.check(d0 + f * (1u + uint64_t(p.dstFracGap)) * E, E, api);
            int8_t sq[64 * 64];
            for (uint32_t r = 0; r < 64; ++r)
                for (uint32_t c = 0; c < 64; ++c) sq[r * 64 + c] = int8_t(cube::load_elem(src.raw(), s + uint64_t(c) * 64 + r).value());
            for (uint32_t f = 0; f < 4; ++f) {
                const uint64_t d = d0 + f * (1u + uint64_t(p.dstFracGap)) * E;
                for (uint32_t e = 0; e < E; ++e) cube::store_elem(dst.raw(), d + e, T(sq[f * E + e]));
            }
        }
    } else {
        fail("cube-not-emulated", "%s of a %zu-byte type is not emulated", api, sizeof(T));
    }
    const uint32_t per = is_int4_v<T> ? 4 : sizeof(T) == 2 ? 1 : 2;  // fractals per square
    trace("LoadDataWithTranspose", Pipe::MTE1, uint64_t(p.repeatTimes) * per * cube::FRACTAL_BYTES, p.repeatTimes, 0, 0, sizeof(T));
}

}  // namespace AscendC

namespace AscendC {

template <typename T>
inline void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData2DParamsV2&) {
    kgen::fail("cube-not-emulated", "LoadData with LoadData2DParamsV2 is an Ascend 950 (dav-3510) form; dav-2201 uses LoadData2DParams");
}

}  // namespace AscendC
