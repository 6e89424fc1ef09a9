// kgen host-side emulation -- the host tiling of LayerNorm and RmsNorm: the tiling-data classes
// optiling::LayerNormTiling / LayerNormSeparateTiling / RmsNormTiling, GetLayerNormMaxMinTmpSize,
// GetLayerNormNDTilingInfo, GetRmsNormMaxMinTmpSize, GetRmsNormTilingInfo.
//
// Documented rules followed (LayerNorm / RmsNorm tiling pages and their public host
// implementation, dav-2201; sizes in adv/norm_types.h):
//  * [B, S, H] LayerNorm: srcShape is [B, S, H, originalH]. Temporary bytes: min 3 (2 for float
//    with isReuseSource) blocks of align32(H * 4) plus 2 * align32(B * S * 4); max the same with
//    the whole input in place of one H row. GetLayerNormNDTilingInfo(shape, stackBufferSize, typeSize,
//    isReuseSource, tiling): tmpBufSize = stack / 4 floats; for half, mean and variance blocks of
//    align8(B * S) floats each come first; oneTmpSize = (tmpBufSize - those) / numberOfTmpBuf rounded
//    down to whole H rows and capped at B * S * H (0: the tiling is left untouched); the round/tail
//    split of the input and of the B * S rows follows from it; lastDimValueBack = 1 / originalH.
//  * [A, R] LayerNorm (isComputeRstd overloads): srcShape is [A, R]; sizes as layernorm_ar_tmp;
//    GetLayerNormNDTilingInfo fills LayerNormSeparateTiling with 2 temporary buffers, a variance
//    block of align8(A) floats, oneTmpSize in whole padded rows, rValueBack = 1 / R.
//  * DeepNorm: srcShape [B, S, H] (H 32-byte aligned, at most 2040; basic blocks: H % 64 == 0 and
//    B * S % 8 == 0, else false), sizes as LayerNorm's [B, S, H] form. GetDeepNormTilingInfo(shape,
//    originShape, stack, typeSize, isReuseSource, isBasicBlock, tiling) returns false on a bad shape, a
//    stack below the minimum or no room for one row; otherwise it fills LayerNormTiling's fields the
//    LayerNorm way, with oneTmpSize rounded down to whole groups of 8 rows for basic blocks.
//  * Normalize: srcShape is [A, R]; min max(align32(A * 4), (2 for float U, 4 for half U) *
//    align32(Rpad * 4)), max 2 * align32(Rpad * 4) + 2 * align32(align8(A) * Rpad * 4) bytes.
//  * RmsNorm: srcShape is [B, S, H] (originSrcShape gives the real H). Sizes: min (H + 8) floats,
//    (2H + 8) for half; max B*S*H (x2 for half) plus B*S rounded up to a block of T, in floats.
//    GetRmsNormMaxMinTmpSize returns false for an isBasicBlock shape that is not one (H % 64, H >=
//    2048 or B*S % 8). GetRmsNormTilingInfo returns false on a bad shape (not 3-D, B/S differing from
//    the origin shape, H < real H, H not 32-byte aligned, not a basic block when asked) or a buffer
//    below the minimum; otherwise it takes as many rows per loop as fit (rows * H * (1 or 2) +
//    align8(rows) floats), capped at the input, at 255 rows, or rounded down to 8 rows for basic blocks.
// Emulator: wrong type sizes or dimension counts are reported on stderr (`norm-tiling`).
//
// @api GetLayerNormMaxMinTmpSize GetLayerNormNDTilingInfo GetRmsNormMaxMinTmpSize GetRmsNormTilingInfo
// @api GetNormalizeMaxMinTmpSize GetDeepNormMaxMinTmpSize GetDeepNormTilingInfo
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph/types.h"
#include "kgen_sim/adv/norm_types.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTiling)
KGEN_LAYERNORM_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(DeepNormTiling)
KGEN_LAYERNORM_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
TILING_DATA_FIELD_DEF(uint32_t, aLength);
TILING_DATA_FIELD_DEF(uint32_t, rLength);
TILING_DATA_FIELD_DEF(uint32_t, halfAddRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, rHeadLength);
TILING_DATA_FIELD_DEF(float, k2Rec);
TILING_DATA_FIELD_DEF(float, k2RRec);
TILING_DATA_FIELD_DEF(uint32_t, inputXSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, numberOfTmpBuf);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorSize);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarRoundSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, arCurLength);
TILING_DATA_FIELD_DEF(uint32_t, aCurLength);
TILING_DATA_FIELD_DEF(float, rValueBack);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF;
// Not registered, like SoftMaxTiling: kernel_operator.h has the kernel-side structs (adv/norm_types.h).
}  // namespace optiling

namespace AscendC {
namespace kgen_host {

inline std::vector<uint32_t> norm_dims(const char* api, const ge::Shape& s, size_t want, uint32_t ts) {
    std::vector<uint32_t> d;
    if (s.GetDimNum() != want) {
        ::kgen::host::host_warn("norm-tiling", "%s: srcShape has %zu dimensions, expected %zu", api,
                     s.GetDimNum(), want);
        return d;
    }
    if (ts != 2 && ts != 4) {
        ::kgen::host::host_warn("norm-tiling", "%s: type size %u is not supported (half: 2, float: 4)", api, ts);
        return d;
    }
    for (size_t i = 0; i < want; ++i) d.push_back(static_cast<uint32_t>(s.GetDim(i)));
    return d;
}

/// Fill LayerNormTiling's fields (LayerNormTiling or DeepNormTiling, host class or kernel struct) for
/// [b, sl, h] with real length oh; `basic` rounds the rows per pass down to groups of 8 (DeepNorm basic
/// blocks). Returns false, leaving the tiling untouched, when not one row fits.
template <class Tl>
inline bool bsh_fill(uint32_t b, uint32_t sl, uint32_t h, uint32_t oh, uint32_t stack, uint32_t ts, bool reuse, bool basic,
                     Tl& t) {
    const uint32_t x = b * sl * h, mv = b * sl, bufs = (reuse && ts == 4) ? 2 : 3;
    const uint32_t blk = ::kgen::adv::align_up(mv, 8), mvTotal = ts == 4 ? 0 : 2 * blk, total = stack / 4;
    uint32_t one = total > mvTotal && h ? (total - mvTotal) / bufs / h * h : 0;
    if (one > x) one = x;
    if (basic && one / (8 * h) > 0) one = one / (8 * h) * (8 * h);
    if (one == 0) return false;
    const uint32_t tail = x % one;
    t.bLength = b; t.sLength = sl; t.hLength = h; t.originalHLength = oh; t.inputXSize = x; t.meanVarSize = mv;
    t.numberOfTmpBuf = bufs; t.meanTmpTensorPos = 0; t.meanTmpTensorSize = blk; t.varianceTmpTensorPos = blk;
    t.varianceTmpTensorSize = blk; t.tmpBufSize = total; t.oneTmpSize = one; t.firstTmpStartPos = mvTotal;
    t.secondTmpStartPos = mvTotal + one; t.thirdTmpStartPos = mvTotal + 2 * one; t.loopRound = x / one;
    t.inputTailSize = tail; t.inputTailPos = x - tail; t.inputRoundSize = one; t.meanVarRoundSize = one / h;
    t.meanVarTailSize = tail / h; t.meanVarTailPos = mv - tail / h; t.bshCurLength = one; t.bsCurLength = one / h;
    t.lastDimValueBack = 1.0f / static_cast<float>(oh);
    return true;
}

template <class Tl>
inline void layernorm_bsh_fill(const ge::Shape& s, uint32_t stack, uint32_t ts, bool reuse, Tl& t) {
    std::vector<uint32_t> d = norm_dims("GetLayerNormNDTilingInfo", s, 4, ts);
    if (!d.empty()) bsh_fill(d[0], d[1], d[2], d[3], stack, ts, reuse, false, t);
}

template <class Tl>
inline void layernorm_ar_fill(const ge::Shape& s, uint32_t stack, uint32_t ts, Tl& t) {
    std::vector<uint32_t> d = norm_dims("GetLayerNormNDTilingInfo", s, 2, ts);
    if (d.empty()) return;
    const uint32_t a = d[0], r = d[1], rp = ::kgen::adv::align_up(r, 32 / ts);
    const uint32_t x = a * rp, varBlk = ::kgen::adv::align_up(a, 8), total = stack / 4;
    uint32_t one = total > varBlk ? (total - varBlk) / 2 : 0;
    one = rp ? one / rp * rp : 0;
    if (one > x) one = x;
    if (one == 0) return;
    const uint32_t tail = x % one;
    t.aLength = a; t.rLength = r; t.inputXSize = x; t.meanVarSize = a; t.numberOfTmpBuf = 2;
    t.varianceTmpTensorPos = 0; t.varianceTmpTensorSize = varBlk; t.tmpBufSize = total; t.oneTmpSize = one;
    t.firstTmpStartPos = varBlk; t.secondTmpStartPos = varBlk + one;
    t.loopRound = x / one; t.inputRoundSize = one; t.inputTailSize = tail; t.inputTailPos = x - tail;
    t.meanVarRoundSize = one / rp; t.meanVarTailSize = tail / rp; t.meanVarTailPos = a - tail / rp;
    t.arCurLength = one; t.aCurLength = one / rp; t.rValueBack = 1.0f / static_cast<float>(r);
}

template <class Tl>
inline bool rmsnorm_fill(const ge::Shape& s, const ge::Shape& o, uint32_t stack, uint32_t ts, Tl& t, bool basic) {
    if (s.GetDimNum() != 3 || o.GetDimNum() != 3 || (ts != 2 && ts != 4)) return false;
    const uint32_t b = s.GetDim(0), sl = s.GetDim(1), h = s.GetDim(2), oh = o.GetDim(2);
    if (b != o.GetDim(0) || sl != o.GetDim(1) || h < oh || oh == 0 || (uint64_t(h) * ts) % 32) return false;
    if (basic && (h % 64 || (b * sl) % 8 || h >= 2048)) return false;
    if (stack < ::kgen::adv::rmsnorm_tmp(b, sl, h, ts, false)) return false;
    const uint32_t total = stack / 4, coeff = ts == 4 ? 1 : 2, x = b * sl * h;
    uint32_t bs = 1;
    while (total >= (bs + 1) * h * coeff + ::kgen::adv::align_up(bs + 1, 8)) ++bs;
    uint32_t one = bs * h;
    if (one > x) one = x;
    bs = one / h;
    if (basic) bs = bs < 8 ? bs : bs / 8 * 8;
    else if (bs > 255) bs = 255;
    one = bs * h;
    t.bLength = b; t.sLength = sl; t.hLength = h; t.originalHLength = oh;
    t.reciprocalOfHLength = 1.0f / static_cast<float>(oh);
    t.mainBshLength = one; t.mainBsLength = bs; t.mainBsLengthAlign = ::kgen::adv::align_up(bs, 8);
    t.loopRound = x / one;
    const uint32_t tail = x % one;
    t.tailBshLength = tail; t.inputTailPos = x - tail; t.tailBsLength = tail / h;
    return true;
}

}  // namespace kgen_host

// ---- LayerNorm -----------------------------------------------------------------------------------
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    std::vector<uint32_t> d = kgen_host::norm_dims("GetLayerNormMaxMinTmpSize", srcShape, 4, typeSize);
    if (d.empty()) return;
    maxValue = ::kgen::adv::layernorm_bsh_tmp(d[0], d[1], d[2], typeSize, isReuseSource, true);
    minValue = ::kgen::adv::layernorm_bsh_tmp(d[0], d[1], d[2], typeSize, isReuseSource, false);
}
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    (void)isReuseSource;
    (void)isComputeRstd;
    (void)isOnlyOutput;
    std::vector<uint32_t> d = kgen_host::norm_dims("GetLayerNormMaxMinTmpSize", srcShape, 2, typeSize);
    if (d.empty()) return;
    maxValue = ::kgen::adv::layernorm_ar_tmp(d[0], d[1], typeSize, true);
    minValue = ::kgen::adv::layernorm_ar_tmp(d[0], d[1], typeSize, false);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& tiling) {
    kgen_host::layernorm_bsh_fill(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, ::LayerNormTiling& tiling) {
    kgen_host::layernorm_bsh_fill(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    (void)isComputeRstd;
    kgen_host::layernorm_ar_fill(srcShape, stackBufferSize, typeSize, tiling);
}
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd, ::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    (void)isComputeRstd;
    kgen_host::layernorm_ar_fill(srcShape, stackBufferSize, typeSize, tiling);
}

// ---- DeepNorm ------------------------------------------------------------------------------------
namespace kgen_host {
inline bool deepnorm_shape_ok(const ge::Shape& s, uint32_t ts, bool basic) {
    if (s.GetDimNum() != 3 || (ts != 2 && ts != 4)) return false;
    const uint32_t bs = static_cast<uint32_t>(s.GetDim(0) * s.GetDim(1)), h = static_cast<uint32_t>(s.GetDim(2));
    if (!bs || !h || (uint64_t(h) * ts) % 32 || h > 2040) return false;
    return !(basic && (h % 64 || bs % 8));
}
}  // namespace kgen_host
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    if (!kgen_host::deepnorm_shape_ok(srcShape, typeSize, isBasicBlock)) return false;
    const uint32_t b = srcShape.GetDim(0), sl = srcShape.GetDim(1), h = srcShape.GetDim(2);
    maxValue = ::kgen::adv::layernorm_bsh_tmp(b, sl, h, typeSize, isReuseSource, true);
    minValue = ::kgen::adv::layernorm_bsh_tmp(b, sl, h, typeSize, isReuseSource, false);
    return true;
}
namespace kgen_host {
template <class Tl>
inline bool deepnorm_fill(const ge::Shape& s, const ge::Shape& o, uint32_t stack, uint32_t ts, bool reuse, bool basic, Tl& t) {
    uint32_t mx = 0, mn = 0;
    if (!GetDeepNormMaxMinTmpSize(s, ts, reuse, basic, mx, mn) || stack < mn || o.GetDimNum() != 3) return false;
    const uint32_t b = s.GetDim(0), sl = s.GetDim(1), h = s.GetDim(2), oh = o.GetDim(2);
    if (o.GetDim(0) != b || o.GetDim(1) != sl || oh == 0 || oh > h || (basic && oh != h)) return false;
    return bsh_fill(b, sl, h, oh, stack, ts, reuse, basic, t);
}
}  // namespace kgen_host
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource, const bool isBasicBlock,
                                  optiling::DeepNormTiling& tiling) {
    return kgen_host::deepnorm_fill(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, tiling);
}
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferSize,
                                  const uint32_t typeSize, const bool isReuseSource, const bool isBasicBlock,
                                  ::DeepNormTiling& tiling) {
    return kgen_host::deepnorm_fill(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, tiling);
}

// ---- Normalize -----------------------------------------------------------------------------------
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    (void)isComputeRstd;
    (void)isOnlyOutput;
    std::vector<uint32_t> d = kgen_host::norm_dims("GetNormalizeMaxMinTmpSize", srcShape, 2, typeSizeT);
    if (d.empty()) return;
    maxValue = ::kgen::adv::normalize_tmp(d[0], d[1], typeSizeU, typeSizeT, true);
    minValue = ::kgen::adv::normalize_tmp(d[0], d[1], typeSizeU, typeSizeT, false);
}

// ---- RmsNorm -------------------------------------------------------------------------------------
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    std::vector<uint32_t> d = kgen_host::norm_dims("GetRmsNormMaxMinTmpSize", srcShape, 3, typeSize);
    if (d.empty()) return false;
    if (isBasicBlock && (d[2] % 64 || (d[0] * d[1]) % 8 || d[2] >= 2048)) return false;
    maxValue = ::kgen::adv::rmsnorm_tmp(d[0], d[1], d[2], typeSize, true);
    minValue = ::kgen::adv::rmsnorm_tmp(d[0], d[1], d[2], typeSize, false);
    return true;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    return kgen_host::rmsnorm_fill(srcShape, originSrcShape, stackBufferByteSize, typeSize, tiling, isBasicBlock);
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize, ::RmsNormTiling& tiling,
                                 const bool isBasicBlock = false) {
    return kgen_host::rmsnorm_fill(srcShape, originSrcShape, stackBufferByteSize, typeSize, tiling, isBasicBlock);
}

}  // namespace AscendC
