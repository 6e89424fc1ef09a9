// kgen AscendC CPU emulator -- L0C -> GM / L1 with on-the-fly conversion (Fixpipe, FixpipeParamsV220).
//
// Documented rules followed (AscendC Fixpipe for dav-2201, FixpipeParamsV220, QuantMode_t):
//  * The source is CO1 (L0C), NZ with 16 x 16 fractals: element (m, n) at
//    (n / 16) * srcStride * 16 + m * 16 + n % 16, srcStride = rows per fractal column (>= mSize).
//  * Fixpipe<DstT, SrcT, CFG_ROW_MAJOR> (the default) converts NZ -> ND: for each of ndNum matrices,
//    dst[nd * dstNdStride + m * dstStride + n] = f(src[nd * srcNdStride * 256 + NZ(m, n)]) for
//    m < mSize, n < nSize; dstStride counts elements (>= nSize), dstNdStride elements, srcNdStride
//    1 KB L0C fractals (256 elements).
//  * Fixpipe<DstT, SrcT, CFG_NZ> keeps NZ: column block nb of the destination starts
//    nb * dstStride * 32 bytes in; inside, row m of the block at m * W, W = max(16, 32 B / sizeof(DstT)),
//    or W = 8 for float output with isChannelSplit (each 16-column block split in two).
//  * f = quantPre then ReLU (reluEn): NoQuant (same type), F322F16 / F322BF16 (float -> half /
//    bfloat16_t, round to nearest even), DEQF16 (int32 -> half, times the scale), QF322B8_PRE (float ->
//    int8/uint8) and REQ8 (int32 -> int8/uint8): saturate(rint(x * scale) + offset). Scalar modes take
//    the scale from deqScalar, the vector modes V* from one uint64 per column in an L1 workspace. The
//    uint64 holds the scale as a float whose 13 low mantissa bits are dropped (bits 31..13), the
//    offset as a signed 9-bit integer in bits 45..37 and "signed result" in bit 46. A quant mode that
//    does not match the source and destination types is `fixpipe-quant-mismatch`.
//  * Destinations: GM, or A1/B1 (L1) on dav-2201. Runs on the FIX pipe.
//
// @api Fixpipe FixpipeParamsV220 FixpipeConfig CO2Layout CFG_NZ CFG_ROW_MAJOR QuantMode_t
#pragma once
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "kgen_sim/cube/layout.h"
#include "kgen_sim/data_copy.h"

enum QuantMode_t : uint8_t { NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 };

namespace AscendC {

using ::QuantMode_t;

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

struct FixpipeParamsV220 {
    FixpipeParamsV220() = default;
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn, uint16_t dstNdStrideIn,
                      uint8_t unitFlagIn, bool isChannelSplitIn = false)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(static_cast<uint64_t>(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn), isChannelSplit(isChannelSplitIn) {}
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

}  // namespace AscendC

namespace kgen::cube {

/// Scale / offset / signedness packed in a quant uint64 (see the rules above).
struct QuantWord {
    float scale;
    int32_t offset;
    bool is_signed;
};
inline QuantWord decode_quant(uint64_t w) {
    uint32_t bits = static_cast<uint32_t>(w) & 0xFFFFE000u;
    float s;
    std::memcpy(&s, &bits, sizeof s);
    int32_t off = static_cast<int32_t>((w >> 37) & 0x1FF);
    if (off & 0x100) off -= 0x200;
    return QuantWord{s, off, ((w >> 46) & 1) != 0};
}

template <typename D, typename S>
inline void check_quant(QuantMode_t q) {
    const char* want = nullptr;
    bool ok = false;
    switch (q) {
        case NoQuant: ok = std::is_same_v<D, S>; want = "the destination type equal to the source type"; break;
        case F322F16: ok = std::is_same_v<S, float> && std::is_same_v<D, half>; want = "float -> half"; break;
        case F322BF16: ok = std::is_same_v<S, float> && std::is_same_v<D, bfloat16_t>; want = "float -> bfloat16_t"; break;
        case DEQF16: case VDEQF16: ok = std::is_same_v<S, int32_t> && std::is_same_v<D, half>; want = "int32_t -> half"; break;
        case QF322B8_PRE: case VQF322B8_PRE:
            ok = std::is_same_v<S, float> && (std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>); want = "float -> int8_t/uint8_t"; break;
        case REQ8: case VREQ8:
            ok = std::is_same_v<S, int32_t> && (std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>); want = "int32_t -> int8_t/uint8_t"; break;
        default: fail("fixpipe-quant-mismatch", "Fixpipe: unknown quantPre %d", int(q));
    }
    static const char* names[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16", "QF322B8_PRE", "VQF322B8_PRE", "REQ8", "VREQ8"};
    if (!ok)
        fail("fixpipe-quant-mismatch", "Fixpipe: quantPre %s needs %s; this call converts a %zu-byte source to a %zu-byte destination",
             names[int(q)], want, sizeof(S), sizeof(D));
}

/// Columns per block of an NZ destination: 32 bytes of the output type, at least 16; float output
/// with isChannelSplit splits each 16-column block into two 8-column (32-byte) blocks.
template <typename D>
inline uint32_t nz_block_width(const AscendC::FixpipeParamsV220& p) {
    if (sizeof(D) == 4 && p.isChannelSplit) return 8;
    return 32 / sizeof(D) > BLOCK ? 32 / sizeof(D) : BLOCK;
}

/// One converted element: quantPre, then ReLU.
template <typename D, typename S>
inline D convert(S x, QuantMode_t q, const QuantWord& w, bool relu) {
    if constexpr (std::is_same_v<D, S>) {
        return relu && x < S(0) ? S(0) : x;
    } else if constexpr (std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>) {
        (void)q;
        double v = std::nearbyint(static_cast<double>(x) * w.scale) + w.offset;
        if (relu && v < 0) v = 0;
        const double lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
        return static_cast<D>(v < lo ? lo : v > hi ? hi : v);
    } else {
        float v = static_cast<float>(x);
        if (q == DEQF16 || q == VDEQF16) v *= w.scale;
        D r = static_cast<D>(v);  // half / bfloat16_t conversions round to nearest even
        return relu && static_cast<float>(r) < 0.f ? static_cast<D>(0.f) : r;
    }
}

template <AscendC::CO2Layout L, typename D, typename S, typename Store>
inline void fixpipe(const AscendC::LocalTensor<S>& src, const AscendC::FixpipeParamsV220& p, const uint64_t* vq, Store store,
                    const char* api = "Fixpipe") {
    require_mem(src, api, "the source", {Mem::L0C}, "CO1 (L0C)");
    check_quant<D, S>(p.quantPre);
    if (p.srcStride < p.mSize)
        fail("fixpipe-param", "%s: srcStride (%u rows per NZ fractal column) is smaller than mSize (%u)", api, p.srcStride, p.mSize);
    if (L == AscendC::CO2Layout::ROW_MAJOR && p.dstStride < p.nSize)
        fail("fixpipe-param", "%s: dstStride (%u elements per destination row) is smaller than nSize (%u)", api, p.dstStride, p.nSize);
    const bool vector_quant = p.quantPre == VDEQF16 || p.quantPre == VQF322B8_PRE || p.quantPre == VREQ8;
    // the per-column quant words are fetched (into the fixpipe buffer) before any result is written,
    // so a destination overlapping the table in L1 does not change them
    std::vector<uint64_t> table;
    if (vector_quant) {
        if (!vq) fail("fixpipe-param", "%s: quantPre %d is a vector mode: pass the quant table (cbufWorkspace)", api, int(p.quantPre));
        table.assign(vq, vq + p.nSize);
        vq = table.data();
    }
    const QuantWord scalar = decode_quant(p.deqScalar);
    const uint32_t nd = L == AscendC::CO2Layout::ROW_MAJOR ? (p.ndNum ? p.ndNum : 1) : 1;
    const uint32_t W = nz_block_width<D>(p);
    for (uint32_t i = 0; i < nd; ++i) {
        const uint64_t s0 = uint64_t(i) * p.srcNdStride * L0C_FRACTAL;
        const uint64_t d0 = uint64_t(i) * p.dstNdStride;
        for (uint32_t m = 0; m < p.mSize; ++m) {
            const uint64_t first = s0 + uint64_t(m) * BLOCK, last = s0 + uint64_t((p.nSize - 1) / BLOCK) * p.srcStride * BLOCK + m * BLOCK + BLOCK;
            if (p.nSize) src.check_read(first, last - first, api);
            for (uint32_t n = 0; n < p.nSize; ++n) {
                const S x = src.raw()[s0 + uint64_t(n / BLOCK) * p.srcStride * BLOCK + m * BLOCK + n % BLOCK];
                const QuantWord w = vector_quant ? decode_quant(vq[n]) : scalar;
                const D y = convert<D, S>(x, p.quantPre, w, p.reluEn);
                const uint64_t d = L == AscendC::CO2Layout::ROW_MAJOR
                                       ? d0 + uint64_t(m) * p.dstStride + n
                                       : uint64_t(n / W) * p.dstStride * (32 / sizeof(D)) + uint64_t(m) * W + n % W;
                store(d, y);
            }
        }
    }
    trace("Fixpipe", Pipe::FIX, uint64_t(nd) * p.mSize * p.nSize * sizeof(D), nd * p.mSize, 0, 0, sizeof(S));
}

/// Where the last destination element of a Fixpipe lies (for one bounds check per call).
template <AscendC::CO2Layout L, typename D>
inline uint64_t fixpipe_extent(const AscendC::FixpipeParamsV220& p) {
    if (p.mSize == 0 || p.nSize == 0) return 0;
    const uint32_t W = nz_block_width<D>(p);
    if (L == AscendC::CO2Layout::ROW_MAJOR)
        return uint64_t((p.ndNum ? p.ndNum : 1) - 1) * p.dstNdStride + uint64_t(p.mSize - 1) * p.dstStride + p.nSize;
    return uint64_t((p.nSize - 1) / W) * p.dstStride * (32 / sizeof(D)) + uint64_t(p.mSize - 1) * W + W;
}

template <AscendC::CO2Layout L, typename D, typename S>
inline void fixpipe_to_gm(const AscendC::GlobalTensor<D>& dst, const AscendC::LocalTensor<S>& src, const AscendC::FixpipeParamsV220& p,
                          const uint64_t* vq, const char* api = "Fixpipe") {
    const uint64_t ext = fixpipe_extent<L, D>(p);
    if (ext) dst.check(0, ext, api);
    D* base = dst.raw();
    fixpipe<L, D, S>(src, p, vq, [&](uint64_t i, D v) { gm_store(base + i, &v, 1); }, api);
}

template <AscendC::CO2Layout L, typename D, typename S>
inline void fixpipe_to_local(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                             const AscendC::FixpipeParamsV220& p, const uint64_t* vq, const char* api = "Fixpipe") {
    require_mem(dst, api, "the destination", {Mem::L1}, "GM or A1/B1 (L1) on dav-2201");
    const uint64_t ext = fixpipe_extent<L, D>(p);
    if (ext) dst.check(0, ext, api);
    D* base = dst.raw();
    fixpipe<L, D, S>(src, p, vq, [&](uint64_t i, D v) { base[i] = v; }, api);
}

template <typename S>
inline const uint64_t* vector_quant_table(const AscendC::LocalTensor<uint64_t>& ws, const AscendC::FixpipeParamsV220& p) {
    require_mem(ws, "Fixpipe", "the quant table (cbufWorkspace)", {Mem::L1}, "A1/B1/C1 (L1)");
    require_elems(ws, p.nSize, "Fixpipe", "the quant table (one uint64 per column)", "fixpipe-param");
    return ws.raw();
}

}  // namespace kgen::cube

namespace AscendC {

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
    kgen::cube::fixpipe_to_gm<config.format, T, U>(dst, src, p, nullptr);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint64_t>& cbufWorkspace,
                    const FixpipeParamsV220& p) {
    kgen::cube::fixpipe_to_gm<config.format, T, U>(dst, src, p, kgen::cube::vector_quant_table<U>(cbufWorkspace, p));
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) {
    kgen::cube::fixpipe_to_local<config.format, T, U>(dst, src, p, nullptr);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<uint64_t>& cbufWorkspace,
                    const FixpipeParamsV220& p) {
    kgen::cube::fixpipe_to_local<config.format, T, U>(dst, src, p, kgen::cube::vector_quant_table<U>(cbufWorkspace, p));
}

}  // namespace AscendC
