// kgen AscendC CPU emulator -- Gather, Transpose, Brcb, CreateVecIndex (dav-2201).
//
// Documented rules followed (AscendC API pages, Atlas A2):
//  * Gather(dst, src, srcOffset, srcBaseAddr, count) and the mask forms
//    (..., srcBaseAddr, mask | mask[], repeatTime, dstRepStride): element i of dst is read from
//    byte address src + srcBaseAddr + srcOffset[i]; offsets are uint32 byte offsets, multiples
//    of sizeof(T), and must stay inside src (`ub-out-of-bounds` otherwise). Types: 2- and 4-byte
//    (half, bfloat16_t, int16/uint16, float, int32/uint32). Mask forms: a repeat gathers 256
//    bytes; lane i of repeat r uses srcOffset[r * elements per repeat + i] and writes
//    dst[r * dstRepStride * (32 / sizeof(T)) + i] (dstRepStride in 32-byte blocks).
//    dst, src and srcOffset start 32-byte aligned.
//  * Gatherb(dst, src, offset, repeatTime, GatherRepeatParams{dstBlkStride, dstRepStride}): whole 32-byte
//    blocks; block j of repeat r is read at src + offset[8r + j] bytes (a multiple of 32, inside src) and
//    written at dst + (r * dstRepStride + j * dstBlkStride) blocks (dstBlkStride 0 acts as 1; the other
//    GatherRepeatParams fields are reserved). uint16_t and uint32_t on A2; repeatTime 0 does nothing.
//  * Transpose(dst, src): one 16 x 16 matrix of a 2-byte type (uint16_t, int16_t, half);
//    dst may be src. Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt):
//    TRANSPOSE_ND2ND_B16 (uint16_t on A2, no buffer needed), TRANSPOSE_NCHW2NHWC and
//    TRANSPOSE_NHWC2NCHW (1-, 2- and 4-byte types; cSize <= 4095, hSize * wSize <= 4095,
//    hSize * wSize * sizeof(T) a multiple of 32; sharedTmpBuffer of (cSize + 2) resp.
//    (2 * cSize + 1) * h0 * w0 * sizeof(T) bytes with w0 = 32 / sizeof(T), h0 = 32 for 1-byte
//    types and 16 otherwise; dst must not overlap src). TRANSPOSE_TYPE_NONE does nothing; the
//    other TransposeType values are documented as unsupported.
//  * Brcb(dst, src0, repeatTime, BrcbRepeatParams): repeat r reads src0[8r .. 8r+7] and fills
//    8 destination blocks, block b entirely with src0[8r + b]; block b of repeat r starts at
//    dst[(r * dstRepStride + b * dstBlkStride) * (32 / sizeof(T))] (dstBlkStride 0 acts as 1).
//    src0 and dst must not be the same memory. Types: 2- and 4-byte.
//  * CreateVecIndex(dst, firstValue, count): dst[i] = firstValue + i (int16, int32, half, float).
//    Computed as the library does: the first 32-byte block directly (rounded once to T), every
//    later block of the first repeat as the previous block + (32 / sizeof(T)), every later
//    repeat as the previous repeat + (256 / sizeof(T)), each addition rounded to T (for half
//    this differs from a single rounding only above 2048). The mask forms (mask | mask[],
//    repeatTime, dstBlkStride, dstRepStride) follow the same recurrence at strided positions.
//
// @api Gather Gatherb GatherRepeatParams Transpose TransposeParamsExt TransposeType Brcb BrcbRepeatParams CreateVecIndex
#pragma once
#include <cstring>
#include <type_traits>
#include <vector>

#include "kgen_sim/vec_engine.h"
#include "kgen_sim/trans_5hd.h"   // TransDataTo5HD (its own header; declared with the transposes)

namespace AscendC {

struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
    TRANSPOSE_ND2ND_021,         // the high-level Transpose's Ascend 950 scenarios (adv/confusion_transpose.h)
    TRANSPOSE_ND2ND_102,
    TRANSPOSE_ND2ND_210,
    TRANSPOSE_ND2NZ_WITH_INTLV,
};

struct TransposeParamsExt {
    constexpr TransposeParamsExt() = default;
    constexpr TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                 const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

}  // namespace AscendC

namespace kgen {
namespace gt {

template <typename T>
constexpr void check_gather_type() {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather / Brcb support 2- and 4-byte element types on dav-2201");
}

/// Byte range [a, a + n) of UB for a tensor view.
template <typename T>
inline bool overlap(const AscendC::LocalTensor<T>& x, uint64_t nx, const AscendC::LocalTensor<T>& y, uint64_t ny) {
    uintptr_t a = reinterpret_cast<uintptr_t>(x.raw()), b = reinterpret_cast<uintptr_t>(y.raw());
    return a < b + ny * sizeof(T) && b < a + nx * sizeof(T);
}

/// Read the element Gather addresses for lane `lane`: src + base + offset bytes.
template <typename T>
inline T gather_one(const char* api, const AscendC::LocalTensor<T>& src, uint32_t base, uint32_t off, uint64_t lane) {
    uint64_t byte = uint64_t(base) + off;
    if (byte % sizeof(T))
        fail("gather-misaligned-offset", "%s: element %llu addresses byte %llu of src (srcBaseAddr %u + offset %u), not a "
             "multiple of the %zu-byte element size", api, (unsigned long long)lane, (unsigned long long)byte, base, off, sizeof(T));
    uint64_t size = uint64_t(src.GetSize()) * sizeof(T);
    if (byte + sizeof(T) > size)
        fail("ub-out-of-bounds", "%s: element %llu reads bytes [%llu, %llu) past the end of a src tensor of %llu bytes "
             "(srcBaseAddr %u + srcOffset %u)", api, (unsigned long long)lane, (unsigned long long)byte,
             (unsigned long long)(byte + sizeof(T)), (unsigned long long)size, base, off);
    T v;
    std::memcpy(&v, reinterpret_cast<const uint8_t*>(src.raw()) + byte, sizeof(T));
    return v;
}

template <typename T>
inline void transpose16(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src) {
    static_assert(sizeof(T) == 2, "Transpose (16 x 16) supports 2-byte types: uint16_t, int16_t, half");
    dst.check_aligned(api);
    src.check_aligned(api);
    src.check(0, 256, api);
    dst.check(0, 256, api);
    T tmp[256];
    std::memcpy(tmp, src.raw(), sizeof tmp);
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) dst.raw()[j * 16 + i] = tmp[i * 16 + j];
    trace(api, Pipe::V, 512, 2);
}

/// CreateVecIndex step: the documented recurrence adds in T.
template <typename T> inline T plus(T a, uint32_t k) { return static_cast<T>(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(k)); }
template <typename T> inline T first_plus(T first, uint32_t k) {
    if constexpr (is_float_v<T>) return static_cast<T>(static_cast<float>(first) + static_cast<float>(k));
    else return static_cast<T>(first + static_cast<T>(k));
}
template <typename T>
constexpr void check_index_type() {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "CreateVecIndex supports int16_t, int32_t, half and float on dav-2201");
}

template <typename T>
void create_index_repeat(const char* api, AscendC::LocalTensor<T>& dst, T first, const MaskSpec& m, uint32_t repeat,
                         uint32_t dstBlk, uint32_t dstRep) {
    check_index_type<T>();
    if (repeat == 0) return;
    Strided<T> D(dst, dstBlk, dstRep, api);
    constexpr uint32_t per = per_repeat<T>(), epb = ONE_BLK / sizeof(T);
    for (uint32_t r = 0; r < repeat; ++r)
        for (uint32_t i = 0; i < per; ++i) {
            if (!m.on(i)) continue;
            if (r > 0) D.at(r, i) = plus(D.at(r - 1, i), per);
            else if (m.bits || i < epb) D.at(0, i) = first_plus(first, i);
            else D.at(0, i) = plus(D.at(0, i - epb), epb);
        }
    trace(api, Pipe::V, uint64_t(repeat) * ONE_REP, repeat);
}

}  // namespace gt
}  // namespace kgen

namespace AscendC {

// ---- Gather ----------------------------------------------------------------------------------------
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count) {
    const char* api = "Gather";
    kgen::gt::check_gather_type<T>();
    kgen::check_count_operand(api, dst, count);
    kgen::check_count_operand(api, srcOffset, count);
    src.check_aligned(api);
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; ++i) out[i] = kgen::gt::gather_one(api, src, srcBaseAddr, srcOffset.raw()[i], i);
    if (count) std::memcpy(dst.raw(), out.data(), count * sizeof(T));
    kgen::trace(api, kgen::Pipe::V, uint64_t(count) * sizeof(T), kgen::repeats_for(uint64_t(count) * sizeof(T)));
}

namespace detail_gather {
template <typename T>
inline void gather_repeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                          uint32_t srcBaseAddr, const kgen::MaskSpec& m, uint32_t repeat, uint16_t dstRepStride) {
    const char* api = "Gather";
    kgen::gt::check_gather_type<T>();
    src.check_aligned(api);
    srcOffset.check_aligned(api);
    if (repeat == 0) return;
    kgen::Strided<T> D(dst, 1, dstRepStride, api);
    constexpr uint32_t per = kgen::per_repeat<T>();
    for (uint32_t r = 0; r < repeat; ++r)
        for (uint32_t i = 0; i < per; ++i) {
            if (!m.on(i)) continue;
            uint64_t k = uint64_t(r) * per + i;
            srcOffset.check(k, 1, "Gather (srcOffset)");
            D.at(r, i) = kgen::gt::gather_one(api, src, srcBaseAddr, srcOffset.raw()[k], k);
        }
    kgen::trace(api, kgen::Pipe::V, uint64_t(repeat) * kgen::ONE_REP, repeat);
}
}  // namespace detail_gather

template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride) {
    detail_gather::gather_repeat(dst, src, srcOffset, srcBaseAddr, kgen::make_mask<T>("Gather", mask), repeatTime, dstRepStride);
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride) {
    detail_gather::gather_repeat(dst, src, srcOffset, srcBaseAddr, kgen::make_mask<T>("Gather", mask), repeatTime, dstRepStride);
}

// ---- Gatherb: whole 32-byte blocks -----------------------------------------------------------------------
struct GatherRepeatParams {
    GatherRepeatParams() {}
    GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = 8;          // the fields below dstBlkStride are reserved (ignored)
    uint16_t dstRepStride = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& offset,
                    const uint8_t repeatTime, const GatherRepeatParams& repeatParams) {
    static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t>, "Gatherb takes uint16_t or uint32_t on dav-2201");
    const char* api = "Gatherb";
    dst.check_aligned(api);
    src.check_aligned(api);
    offset.check_aligned(api);
    const uint64_t blocks = uint64_t(repeatTime) * 8;
    if (blocks) offset.check(0, blocks, api);
    const uint32_t bs = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1;   // 0 acts as 1
    const uint64_t srcBytes = uint64_t(src.GetSize()) * sizeof(T), dstBytes = uint64_t(dst.GetSize()) * sizeof(T);
    std::vector<uint8_t> in(blocks * 32);      // every block is read before any is written
    for (uint64_t b = 0; b < blocks; ++b) {
        const uint32_t off = offset.raw()[b];
        if (off % 32)
            kgen::fail("gather-misaligned-offset", "Gatherb: block %llu has offset %u bytes, not a multiple of 32", (unsigned long long)b, off);
        if (uint64_t(off) + 32 > srcBytes)
            kgen::fail("ub-out-of-bounds", "Gatherb: block %llu reads bytes [%u, %u) past the end of a src tensor of %llu bytes",
                       (unsigned long long)b, off, off + 32, (unsigned long long)srcBytes);
        std::memcpy(&in[b * 32], reinterpret_cast<const uint8_t*>(src.raw()) + off, 32);
    }
    for (uint64_t b = 0; b < blocks; ++b) {
        const uint64_t at = ((b / 8) * repeatParams.dstRepStride + (b % 8) * bs) * 32;
        if (at + 32 > dstBytes)
            kgen::fail("ub-out-of-bounds", "Gatherb: block %llu writes bytes [%llu, %llu) past the end of a dst tensor of %llu bytes",
                       (unsigned long long)b, (unsigned long long)at, (unsigned long long)(at + 32), (unsigned long long)dstBytes);
        std::memcpy(reinterpret_cast<uint8_t*>(dst.raw()) + at, &in[b * 32], 32);
    }
    kgen::trace(api, kgen::Pipe::V, blocks * 32, repeatTime, 0, 0, sizeof(T));
}

// ---- Transpose -----------------------------------------------------------------------------------------
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
    kgen::gt::transpose16("Transpose", dst, src);
}

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& transposeParams) {
    const char* api = "Transpose";
    const TransposeParamsExt& p = transposeParams;
    switch (p.transposeType) {
        case TransposeType::TRANSPOSE_TYPE_NONE: return;
        case TransposeType::TRANSPOSE_ND2ND_B16:
            if constexpr (std::is_same_v<T, uint16_t>) {
                kgen::gt::transpose16(api, dst, src);
                return;
            } else {
                kgen::fail("unsupported-dtype", "Transpose with TRANSPOSE_ND2ND_B16 supports uint16_t only on dav-2201 "
                           "(use the two-argument Transpose for half / int16_t)");
            }
        case TransposeType::TRANSPOSE_NCHW2NHWC:
        case TransposeType::TRANSPOSE_NHWC2NCHW: break;
        default:
            kgen::fail("unsupported-transpose", "Transpose: TransposeType %d is documented as unsupported",
                       static_cast<int>(p.transposeType));
    }
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "Transpose NCHW<->NHWC supports 1-, 2- and 4-byte types");
    const bool to_nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    const uint64_t N = p.nSize, C = p.cSize, HW = uint64_t(p.hSize) * p.wSize;
    if (C > 4095) kgen::fail("bad-transpose-shape", "Transpose: cSize %u exceeds 4095", unsigned(C));
    if (HW > 4095) kgen::fail("bad-transpose-shape", "Transpose: hSize * wSize = %llu exceeds 4095", (unsigned long long)HW);
    if (HW * sizeof(T) % kgen::ONE_BLK)
        kgen::fail("bad-transpose-shape", "Transpose: hSize * wSize * sizeof(T) = %llu bytes is not a multiple of 32",
                   (unsigned long long)(HW * sizeof(T)));
    dst.check_aligned(api);
    src.check_aligned(api);
    sharedTmpBuffer.check_aligned(api);
    const uint64_t total = N * C * HW;
    src.check(0, total, api);
    dst.check(0, total, api);
    const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = kgen::ONE_BLK / sizeof(T);
    const uint64_t need = (to_nhwc ? C + 2 : 2 * C + 1) * h0 * w0 * sizeof(T);
    if (sharedTmpBuffer.GetSize() < need)
        kgen::fail("transpose-tmp-too-small", "Transpose: sharedTmpBuffer holds %u bytes but the documented rule needs %llu",
                   sharedTmpBuffer.GetSize(), (unsigned long long)need);
    if (kgen::gt::overlap(dst, total, src, total))
        kgen::fail("ub-overlap", "Transpose NCHW<->NHWC: dst and src overlap (documented as unsupported)");
    const T* s = src.raw();
    T* d = dst.raw();
    for (uint64_t n = 0; n < N; ++n)
        for (uint64_t c = 0; c < C; ++c)
            for (uint64_t x = 0; x < HW; ++x) {
                uint64_t nchw = (n * C + c) * HW + x, nhwc = (n * HW + x) * C + c;
                if (to_nhwc) d[nhwc] = s[nchw];
                else d[nchw] = s[nhwc];
            }
    std::memset(sharedTmpBuffer.raw(), 0, need);  // the buffer's content is scratch after the call
    kgen::trace(api, kgen::Pipe::V, total * sizeof(T), kgen::repeats_for(total * sizeof(T)));
}

// ---- Brcb ---------------------------------------------------------------------------------------------------
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                 const BrcbRepeatParams& repeatParams) {
    const char* api = "Brcb";
    kgen::gt::check_gather_type<T>();
    dst.check_aligned(api);
    src0.check_aligned(api);
    if (repeatTime == 0) return;
    src0.check(0, uint64_t(repeatTime) * 8, api);
    if (dst.raw() == src0.raw()) kgen::fail("ub-overlap", "Brcb: src0 and dst are the same memory (documented as unsupported)");
    constexpr uint32_t epb = kgen::ONE_BLK / sizeof(T);
    const uint32_t blk = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1;
    std::vector<T> in(src0.raw(), src0.raw() + uint64_t(repeatTime) * 8);
    for (uint32_t r = 0; r < repeatTime; ++r)
        for (uint32_t b = 0; b < 8; ++b) {
            uint64_t start = (uint64_t(r) * repeatParams.dstRepStride + uint64_t(b) * blk) * epb;
            dst.check(start, epb, api);
            for (uint32_t e = 0; e < epb; ++e) dst.raw()[start + e] = in[r * 8 + b];
        }
    kgen::trace(api, kgen::Pipe::V, uint64_t(repeatTime) * kgen::ONE_REP, repeatTime);
}

// ---- CreateVecIndex -------------------------------------------------------------------------------------------
template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count) {
    const char* api = "CreateVecIndex";
    kgen::gt::check_index_type<T>();
    kgen::check_count_operand(api, dst, count);
    constexpr uint32_t per = kgen::per_repeat<T>(), epb = kgen::ONE_BLK / sizeof(T);
    T* d = dst.raw();
    for (uint32_t i = 0; i < count; ++i) {
        if (i < epb) d[i] = kgen::gt::first_plus(firstValue, i);
        else if (i < per) d[i] = kgen::gt::plus(d[i - epb], epb);
        else d[i] = kgen::gt::plus(d[i - per], per);
    }
    kgen::trace(api, kgen::Pipe::V, uint64_t(count) * sizeof(T), kgen::repeats_for(uint64_t(count) * sizeof(T)));
}
template <typename T>
inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride) {
    kgen::gt::create_index_repeat("CreateVecIndex", dst, firstValue, kgen::make_mask<T>("CreateVecIndex", mask), repeatTime,
                                  dstBlkStride, dstRepStride);
}
template <typename T>
inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride) {
    kgen::gt::create_index_repeat("CreateVecIndex", dst, firstValue, kgen::make_mask<T>("CreateVecIndex", mask), repeatTime,
                                  dstBlkStride, dstRepStride);
}

}  // namespace AscendC
