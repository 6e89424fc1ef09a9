// kgen AscendC CPU emulator -- the data types LayerNorm and RmsNorm share between the kernel and
// the host: the kernel-side tiling structs and the LayerNorm parameter/config structs.
//
// Documented rules followed (LayerNorm / RmsNorm pages and their tiling pages, dav-2201):
//  * LayerNormTiling (the [B, S, H] form): 25 uint32_t fields then the float lastDimValueBack, in
//    the order bLength, sLength, hLength, originalHLength, inputXSize, meanVarSize, numberOfTmpBuf,
//    meanTmpTensorPos, meanTmpTensorSize, varianceTmpTensorPos, varianceTmpTensorSize, tmpBufSize,
//    oneTmpSize, firstTmpStartPos, secondTmpStartPos, thirdTmpStartPos, loopRound, inputRoundSize,
//    inputTailSize, inputTailPos, meanVarRoundSize, meanVarTailSize, meanVarTailPos, bshCurLength,
//    bsCurLength, lastDimValueBack (= 1 / originalHLength).
//  * LayerNormSeparateTiling (the [A, R] form): aLength, rLength, halfAddRepeatTimes, rHeadLength,
//    float k2Rec, float k2RRec, inputXSize, meanVarSize, numberOfTmpBuf, varianceTmpTensorPos,
//    varianceTmpTensorSize, tmpBufSize, oneTmpSize, firstTmpStartPos, secondTmpStartPos,
//    thirdTmpStartPos, loopRound, inputRoundSize, inputTailSize, inputTailPos, meanVarRoundSize,
//    meanVarTailSize, meanVarTailPos, arCurLength, aCurLength, float rValueBack (= 1 / rLength).
//  * DeepNormTiling: LayerNormTiling's fields (same order and meaning).
//  * BatchNormTiling: originalBLength, meanVarSize, meanTmpTensorPos, varianceTmpTensorPos, tmpBufSize,
//    oneTmpSize, firstTmpStartPos, secondTmpStartPos, thirdTmpStartPos, loopRound, inputTailSize,
//    inputTailPos, meanVarTailSize, meanVarTailPos, bshCurLength, shCurLength, float firstDimValueBack
//    (= 1 / B), castHalfRepStride, shCurLengthBlockNum, castHalfOutRepStride.
//  * RmsNormTiling: bLength, sLength, hLength, originalHLength, float reciprocalOfHLength,
//    mainBshLength, mainBsLength, mainBsLengthAlign, loopRound, inputTailPos, tailBshLength, tailBsLength.
//  * LayerNormConfig {isNoBeta, isNoGamma, isOnlyOutput, isOutputRstd = true}; LNCFG_NORM is the
//    default; LayerNormPara {aLength, rLength, rLengthWithPadding}.
//  * Normalize: NormalizeConfig {reducePattern = AR (the only one supported), aLength = -1 (take
//    para.aLength), isNoBeta, isNoGamma, isOnlyOutput}, NLCFG_NORM the default; NormalizePara
//    {aLength, rLength, rLengthWithPadding}; ReducePattern {AR = 0, RA = 1, R, ARA, ..., RARARARA}.
// Each host class optiling::<Name> (adv/host_norm_tiling.h) has the same fields, so its SaveToBuffer
// bytes are the kernel struct.
//
// @api LayerNormTiling LayerNormSeparateTiling RmsNormTiling LayerNormConfig LayerNormPara LNCFG_NORM
// @api ReducePattern NormalizeConfig NormalizePara NLCFG_NORM DeepNormTiling BatchNormTiling
#pragma once
#include <cstdint>

// LayerNormTiling's 26 fields, in order: the one list that LayerNormTiling and DeepNormTiling (kernel
// structs here, tiling-data classes in adv/host_norm_tiling.h) all expand, so they cannot drift apart.
#define KGEN_LAYERNORM_TILING_FIELDS(X)                                                                        \
    X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength)                \
    X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, meanTmpTensorPos) \
    X(uint32_t, meanTmpTensorSize) X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize)        \
    X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos) \
    X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize)  \
    X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize)                       \
    X(uint32_t, meanVarTailPos) X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(float, lastDimValueBack)
#ifndef KGEN_KERNEL_TILING_FIELD
#define KGEN_KERNEL_TILING_FIELD(type, name) type name = 0;
#endif

struct LayerNormTiling {
    KGEN_LAYERNORM_TILING_FIELDS(KGEN_KERNEL_TILING_FIELD)
};

// DeepNormTiling: LayerNormTiling's fields (same list, same order).
struct DeepNormTiling {
    KGEN_LAYERNORM_TILING_FIELDS(KGEN_KERNEL_TILING_FIELD)
};

struct LayerNormSeparateTiling {
    uint32_t aLength = 0, rLength = 0, halfAddRepeatTimes = 0, rHeadLength = 0;
    float k2Rec = 0.0f, k2RRec = 0.0f;
    uint32_t inputXSize = 0, meanVarSize = 0, numberOfTmpBuf = 0, varianceTmpTensorPos = 0, varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0;
    uint32_t loopRound = 0, inputRoundSize = 0, inputTailSize = 0, inputTailPos = 0;
    uint32_t meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, arCurLength = 0, aCurLength = 0;
    float rValueBack = 0.0f;
};

struct BatchNormTiling {
    uint32_t originalBLength = 0, meanVarSize = 0, meanTmpTensorPos = 0, varianceTmpTensorPos = 0, tmpBufSize = 0;
    uint32_t oneTmpSize = 0, firstTmpStartPos = 0, secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0;
    uint32_t inputTailSize = 0, inputTailPos = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0;
    uint32_t shCurLength = 0;
    float firstDimValueBack = 0.0f;
    uint32_t castHalfRepStride = 0, shCurLengthBlockNum = 0, castHalfOutRepStride = 0;
};

struct RmsNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0;
    float reciprocalOfHLength = 0.0f;
    uint32_t mainBshLength = 0, mainBsLength = 0, mainBsLengthAlign = 0, loopRound = 0, inputTailPos = 0;
    uint32_t tailBshLength = 0, tailBsLength = 0;
};

namespace AscendC {
namespace tiling {
using LayerNormTiling = ::LayerNormTiling;
using LayerNormSeparateTiling = ::LayerNormSeparateTiling;
using DeepNormTiling = ::DeepNormTiling;
using BatchNormTiling = ::BatchNormTiling;
using RmsNormTiling = ::RmsNormTiling;
}  // namespace tiling

struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

// The reduce-axis patterns of the high-level reduce/normalize APIs (A: kept axis, R: reduced axis).
enum class ReducePattern : uint32_t {
    AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA, ARARARAR, ARARARARA,
    RAR, RARA, RARAR, RARARA, RARARAR, RARARARA,
};
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
}  // namespace AscendC

namespace kgen {
namespace adv {

constexpr uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/// LayerNorm [B, S, H]: documented temporary bytes (min: one H row, max: the whole input).
constexpr uint32_t layernorm_bsh_tmp(uint32_t b, uint32_t s, uint32_t h, uint32_t ts, bool reuse, bool max) {
    const uint32_t bufs = (reuse && ts == 4) ? 2 : 3;
    const uint32_t mv = align_up(b * s * 4, 32);
    const uint32_t one = max ? align_up(b * s * h * 4, 32) : align_up(h * 4, 32);
    return bufs * one + 2 * mv;
}

/// LayerNorm [A, R] (rstd form): documented temporary bytes, including Normalize's own floor.
constexpr uint32_t layernorm_ar_tmp(uint32_t a, uint32_t r, uint32_t ts, bool max) {
    const uint32_t rp = align_up(r, 32 / ts);
    const uint32_t mv = align_up(a * 4, 32);
    uint32_t v = max ? 2 * align_up(a * rp * 4, 32) + mv : 2 * align_up(rp * 4, 32) + mv;
    const uint32_t nmax = 2 * align_up(rp * 4, 32) + 2 * align_up(align_up(a, 8) * rp * 4, 32);
    const uint32_t nr = (ts == 4 ? 2 : 4) * align_up(rp * 4, 32);
    const uint32_t nmin = align_up(a * 4, 32) >= nr ? align_up(a * 4, 32) : nr;
    const uint32_t n = max ? nmax : nmin;
    if (v - mv <= n) v = n + mv;
    return v;
}

/// Normalize (dav-2201): documented temporary bytes; U is the gamma/beta type.
constexpr uint32_t normalize_tmp(uint32_t a, uint32_t r, uint32_t tsU, uint32_t tsT, bool max) {
    const uint32_t rp = align_up(r, 32 / tsT);
    if (max) return 2 * align_up(rp * 4, 32) + 2 * align_up(align_up(a, 8) * rp * 4, 32);
    const uint32_t ab = align_up(a * 4, 32), nr = (tsU == 4 ? 2 : 4) * align_up(rp * 4, 32);
    return ab >= nr ? ab : nr;
}

/// BatchNorm: documented temporary bytes (min: 3 blocks per batch row, max: the whole input).
constexpr uint32_t batchnorm_tmp(uint32_t b, uint32_t sh, uint32_t ts, bool basic, bool max) {
    const uint32_t mv = align_up(sh * 4, 32);
    if (max) return 3 * align_up(b * sh * 4, 32) + 2 * mv;
    const uint32_t per = basic ? b * 64 * 4 : (ts == 2 ? b * 64 : b * 32);
    return 3 * per + 2 * mv;
}

/// RmsNorm: documented temporary bytes (min: one H row plus a block of row results).
constexpr uint32_t rmsnorm_tmp(uint32_t b, uint32_t s, uint32_t h, uint32_t ts, bool max) {
    const uint32_t coeff = ts == 2 ? 2 : 1;
    if (!max) return (h * coeff + 8) * 4;
    return (b * s * h * coeff + align_up(b * s, 32 / ts)) * 4;
}

}  // namespace adv
}  // namespace kgen
