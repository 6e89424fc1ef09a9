// kgen AscendC CPU emulator -- temporary-buffer sizes of the high-level math library.
//
// One table shared by the kernel side (which rejects a sharedTmpBuffer smaller than the
// documented minimum) and the host side (Get<Name>MaxMinTmpSize, Get<Name>TmpBufferFactorSize).
//
// Documented rules followed (dav-2201, the host tiling pages of each API):
//  * A high-level math API keeps a fixed number of intermediate vectors alive ("live nodes"),
//    each as large as the part of the input processed at once. The minimum temporary buffer
//    holds one 256-byte repeat per live node: min = liveNodes * 256 bytes; the maximum (the
//    most the API can use) covers the whole input at once:
//    max = liveNodes * max(count * typeSize, 256). A buffer between the two works; smaller
//    buffers make the API loop over more, smaller chunks.
//  * GetXxxTmpBufferFactorSize reports (maxLiveNodeCount, extraBuf) so that a kernel can size
//    its chunk: count = (tmpBytes - extraBuf) / maxLiveNodeCount / typeSize.
//  * isReuseSource only matters for float inputs; for half it is not supported.
// The live-node counts per API and type are facts read from the public host tiling pages and
// headers; the formulas above are the documented shape of every rule, with the exceptions
// listed next to the APIs in question (Exp, Log2, Round, Clamp, Power, Fmod).
//
// (No public API: shared helper.)
#pragma once
#include <algorithm>
#include <cstdint>

namespace kgen {
namespace adv {

inline constexpr uint32_t REP_BYTES = 256;

/// How many intermediate vectors an API keeps alive, per input type.
struct LiveNodes {
    uint32_t half_nodes;
    uint32_t float_nodes;
    uint32_t float_reuse_nodes;  // float with isReuseSource = true
    uint32_t of(uint32_t typeSize, bool reuse) const {
        if (typeSize == 4) return reuse ? float_reuse_nodes : float_nodes;
        return half_nodes;
    }
};

// clang-format off
inline constexpr LiveNodes kAcos  {6, 2, 2};
inline constexpr LiveNodes kAcosh {2, 1, 1};
inline constexpr LiveNodes kAsin  {6, 2, 2};
inline constexpr LiveNodes kAsinh {3, 3, 3};
inline constexpr LiveNodes kAtan  {12, 5, 5};
inline constexpr LiveNodes kAtanh {4, 1, 1};
inline constexpr LiveNodes kAxpy  {4, 1, 1};
inline constexpr LiveNodes kCeil  {2, 1, 1};
inline constexpr LiveNodes kCos   {8, 3, 2};
inline constexpr LiveNodes kCosh  {6, 2, 2};
inline constexpr LiveNodes kErf   {8, 3, 3};
inline constexpr LiveNodes kErfc  {16, 7, 7};
inline constexpr LiveNodes kFloor {2, 0, 0};
inline constexpr LiveNodes kFrac  {4, 0, 0};
inline constexpr LiveNodes kRound {1, 0, 0};
inline constexpr LiveNodes kSign  {3, 3, 3};
inline constexpr LiveNodes kSin   {8, 3, 2};
inline constexpr LiveNodes kSinh  {4, 1, 1};
inline constexpr LiveNodes kTan   {10, 4, 4};
inline constexpr LiveNodes kTanh  {4, 1, 1};
inline constexpr LiveNodes kTrunc {2, 1, 1};
inline constexpr LiveNodes kXor   {1, 1, 1};
inline constexpr LiveNodes kNone  {0, 0, 0};  // Log, Log10: no temporary buffer
inline constexpr LiveNodes kLog2  {1, 0, 0};  // min: one float repeat for half (factor size: 2)
// Fmod = Trunc's nodes plus 6 (three float vectors, counted in half-sized nodes) for half.
inline constexpr LiveNodes kFmod  {2 + 6, 1, 1};
// clang-format on

/// Minimum temporary bytes of a rule of the general shape.
inline uint32_t min_tmp(const LiveNodes& r, uint32_t typeSize, bool reuse) { return r.of(typeSize, reuse) * REP_BYTES; }
/// Maximum temporary bytes of a rule of the general shape, for `count` elements.
inline uint32_t max_tmp(const LiveNodes& r, uint32_t typeSize, bool reuse, uint64_t count) {
    uint64_t one = std::max<uint64_t>(count * typeSize, REP_BYTES);
    return static_cast<uint32_t>(r.of(typeSize, reuse) * one);
}

// ---- the exceptions -------------------------------------------------------------------------

/// Exp (high-level): float intermediates; 4 of them for half, 3 for float (2 reusing the source).
inline uint32_t exp_nodes(uint32_t typeSize, bool reuse) { return typeSize == 4 ? (reuse ? 2 : 3) : 4; }
inline uint32_t exp_min_tmp(uint32_t typeSize, bool reuse) { return exp_nodes(typeSize, reuse) * REP_BYTES; }
inline uint32_t exp_max_tmp(uint32_t typeSize, bool reuse, uint64_t count) {
    return static_cast<uint32_t>(exp_nodes(typeSize, reuse) * std::max<uint64_t>(count * 4, REP_BYTES));
}

/// Log2: half needs one float vector (at least one repeat); float needs nothing.
inline uint32_t log2_min_tmp(uint32_t typeSize) { return typeSize == 2 ? REP_BYTES : 0; }
inline uint32_t log2_max_tmp(uint32_t typeSize, uint64_t count) {
    return typeSize == 2 ? static_cast<uint32_t>(std::max<uint64_t>(count * 4, REP_BYTES)) : 0;
}

/// ClampMax / ClampMin: a byte mask, one byte per element, at least one repeat of elements.
inline uint32_t clamp_min_tmp(uint32_t typeSize) { return typeSize == 4 ? 64 : 128; }
inline uint32_t clamp_max_tmp(uint32_t typeSize, uint64_t count) {
    return static_cast<uint32_t>(std::max<uint64_t>(count, clamp_min_tmp(typeSize)));
}

/// Power on dav-2201: live nodes for tensor^tensor (tt) and tensor^scalar / scalar^tensor (ts).
struct PowerNodes { uint32_t tt, ts; };
inline constexpr PowerNodes kPowHalf{14, 14}, kPowFloat{4, 5}, kPowInt{6, 7};
inline uint32_t power_min_tmp(bool isInt, uint32_t typeSize, bool tensorTensor) {
    if (isInt) return REP_BYTES * (tensorTensor ? kPowInt.tt : kPowInt.ts);
    if (typeSize == 4) return REP_BYTES * (tensorTensor ? kPowFloat.tt : kPowFloat.ts) + REP_BYTES;
    return REP_BYTES * (tensorTensor ? kPowHalf.tt : kPowHalf.ts) / 2 + REP_BYTES;
}
inline uint32_t power_max_tmp(bool isInt, uint32_t typeSize, bool tensorTensor, uint64_t count) {
    uint64_t bytes = count * typeSize;
    if (isInt) return static_cast<uint32_t>(std::max<uint64_t>(bytes, REP_BYTES) * (tensorTensor ? kPowInt.tt : kPowInt.ts));
    if (typeSize == 4)
        return static_cast<uint32_t>(std::max<uint64_t>(bytes, REP_BYTES) * (tensorTensor ? kPowFloat.tt : kPowFloat.ts) + REP_BYTES);
    return static_cast<uint32_t>(std::max<uint64_t>(bytes, REP_BYTES / 2) * (tensorTensor ? kPowHalf.tt : kPowHalf.ts) + REP_BYTES);
}
inline uint32_t power_nodes(bool isInt, uint32_t typeSize, bool tensorTensor) {
    const PowerNodes& p = isInt ? kPowInt : (typeSize == 4 ? kPowFloat : kPowHalf);
    return tensorTensor ? p.tt : p.ts;
}

}  // namespace adv
}  // namespace kgen
