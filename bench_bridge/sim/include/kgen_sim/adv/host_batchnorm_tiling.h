// kgen host-side emulation -- BatchNorm's host tiling: optiling::BatchNormTiling,
// GetBatchNormMaxMinTmpSize, GetBatchNormNDTilingInfo.
//
// Documented rules followed (dav-2201 BatchNorm tiling page and its public host implementation):
//  * srcShape [B, S, H] (S * H * typeSize a multiple of 32), originSrcShape's B is the real batch.
//    isBasicBlock needs B a multiple of 8 and S * H a multiple of 64 (else both functions return false).
//  * Sizes: adv/norm_types.h batchnorm_tmp.
//  * GetBatchNormNDTilingInfo: false on a bad shape or a stack below the minimum. tmpBufSize = stack / 4;
//    for half, mean and variance blocks of align8(S * H) floats come first; oneTmpSize = (tmpBufSize -
//    those) / 3 rounded down to a multiple of B * 8 (float) or B * 16 (half), capped at B * S * H (0:
//    false); shCurLength = oneTmpSize / B (basic blocks: rounded down to a multiple of 64, oneTmpSize
//    follows); loopRound / inputTailSize split B * S * H by oneTmpSize; inputTailPos = (B*S*H - tail) / B;
//    meanVarTailSize = tail / B; meanVarTailPos = S*H - that; bshCurLength = oneTmpSize;
//    firstDimValueBack = 1 / B; castHalfRepStride = 4; shCurLengthBlockNum = shCurLength / 8;
//    castHalfOutRepStride = S * H / 16.
//
// @api GetBatchNormMaxMinTmpSize GetBatchNormNDTilingInfo
#pragma once
#include <cstdint>

#include "graph/types.h"
#include "kgen_sim/adv/norm_types.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, originalBLength);
TILING_DATA_FIELD_DEF(uint32_t, meanVarSize);
TILING_DATA_FIELD_DEF(uint32_t, meanTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, varianceTmpTensorPos);
TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
TILING_DATA_FIELD_DEF(uint32_t, oneTmpSize);
TILING_DATA_FIELD_DEF(uint32_t, firstTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, secondTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, thirdTmpStartPos);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailSize);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailSize);
TILING_DATA_FIELD_DEF(uint32_t, meanVarTailPos);
TILING_DATA_FIELD_DEF(uint32_t, bshCurLength);
TILING_DATA_FIELD_DEF(uint32_t, shCurLength);
TILING_DATA_FIELD_DEF(float, firstDimValueBack);
TILING_DATA_FIELD_DEF(uint32_t, castHalfRepStride);
TILING_DATA_FIELD_DEF(uint32_t, shCurLengthBlockNum);
TILING_DATA_FIELD_DEF(uint32_t, castHalfOutRepStride);
END_TILING_DATA_DEF;
// Not registered, like SoftMaxTiling: kernel_operator.h has the kernel-side struct (adv/norm_types.h).
}  // namespace optiling

namespace AscendC {

inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue,
                                      const bool isBasicBlock = false) {
    (void)isReuseSource;
    if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3) return false;
    const uint32_t b = originSrcShape.GetDim(0), sh = srcShape.GetDim(1) * srcShape.GetDim(2);
    if (isBasicBlock && (sh % 64 || b % 8)) return false;
    maxValue = ::kgen::adv::batchnorm_tmp(b, sh, typeSize, isBasicBlock, true);
    minValue = ::kgen::adv::batchnorm_tmp(b, sh, typeSize, isBasicBlock, false);
    return true;
}
namespace kgen_host {
template <class Tl>
inline bool batchnorm_fill(const ge::Shape& s, const ge::Shape& o, uint32_t stack, uint32_t ts, bool reuse, bool basic, Tl& t) {
    uint32_t mx = 0, mn = 0;
    if (s.GetDimNum() != 3 || o.GetDimNum() != 3 || (ts != 2 && ts != 4)) return false;
    const uint32_t b = o.GetDim(0), sh = s.GetDim(1) * s.GetDim(2);
    if ((uint64_t(sh) * ts) % 32 || !GetBatchNormMaxMinTmpSize(s, o, ts, reuse, mx, mn, basic) || stack < mn || !b) return false;
    const uint32_t x = b * sh, blk = ::kgen::adv::align_up(sh, 8), mvTotal = ts == 4 ? 0 : 2 * blk, total = stack / 4;
    uint32_t one = total > mvTotal ? (total - mvTotal) / 3 : 0;
    const uint32_t unit = b * (ts == 4 ? 8 : 16);
    one = one / unit * unit;
    if (one > x) one = x;
    if (one == 0) return false;
    uint32_t shCur = one / b;
    if (basic && shCur % 64) {
        shCur = shCur / 64 * 64;
        one = shCur * b;
    }
    const uint32_t tail = x % one;
    t.originalBLength = b; t.meanVarSize = sh; t.meanTmpTensorPos = 0; t.varianceTmpTensorPos = blk; t.tmpBufSize = total;
    t.oneTmpSize = one; t.firstTmpStartPos = mvTotal; t.secondTmpStartPos = mvTotal + one; t.thirdTmpStartPos = mvTotal + 2 * one;
    t.loopRound = x / one; t.inputTailSize = tail; t.inputTailPos = (x - tail) / b; t.meanVarTailSize = tail / b;
    t.meanVarTailPos = sh - tail / b; t.bshCurLength = one; t.shCurLength = shCur;
    t.firstDimValueBack = 1.0f / static_cast<float>(b); t.castHalfRepStride = 4; t.shCurLengthBlockNum = shCur / 8;
    t.castHalfOutRepStride = sh / 16;
    return true;
}
}  // namespace kgen_host
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferByteSize,
                                     const uint32_t typeSize, const bool isReuseSource, optiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    return kgen_host::batchnorm_fill(srcShape, originSrcShape, stackBufferByteSize, typeSize, isReuseSource, isBasicBlock, tilling);
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t stackBufferByteSize,
                                     const uint32_t typeSize, const bool isReuseSource, ::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    return kgen_host::batchnorm_fill(srcShape, originSrcShape, stackBufferByteSize, typeSize, isReuseSource, isBasicBlock, tilling);
}

}  // namespace AscendC
