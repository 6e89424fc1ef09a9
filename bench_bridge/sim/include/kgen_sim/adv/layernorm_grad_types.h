// kgen AscendC CPU emulator -- the tiling structs of LayerNormGrad and LayerNormGradBeta, shared by
// the kernel side (adv/layernorm_grad.h) and the host side (adv/host_norm_grad_tiling.h).
//
// Documented rules followed (LayerNormGrad Tiling / LayerNormGradBeta Tiling pages):
//  * LayerNormGradTiling: 30 uint32_t fields, in the order stackBufferSize, bLength, sLength, hLength,
//    originalHLength, oneCalSize, nohCalSize, loopNum, tailSize, nohTailSize, then (Pos, Size) pairs
//    for tmpTensorBSH, pdVarTensor, pdMeanTensor, x1Tensor, x2Tensor, x3Tensor, tmpTensor, tmpTensor1,
//    tmpTensor2, then lastDimValueBack and lastDimValueBackMulTwo (the bits of the floats 1 / H and
//    2 / H of the original H).
//  * LayerNormGradBetaTiling: 20 uint32_t fields: stackBufferSize, bLength, sLength, hLength,
//    originalHLength, bshLength, bsLength, oneCalSize, numberOfTmpBuf, loopRound, inputTailSize,
//    inputTailPos, bsTailSize, bshCurLength, bsCurLength, gammaTempTensorPos, betaTempTensorPos,
//    inputDyTmpTensorPos, resForGammaTmpTensorPos, reserved.
//  * LayerNormGradShapeInfo {DataFormat dataFormat = ND} (ND is the only supported format).
// The field lists below are expanded by both the kernel structs and the host tiling-data classes.
//
// @api LayerNormGradTiling LayerNormGradBetaTiling LayerNormGradShapeInfo
#pragma once
#include <cstdint>

#include "kgen_sim/adv/data_format.h"

#define KGEN_LAYERNORM_GRAD_TILING_FIELDS(X)                                                                   \
    X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)                \
    X(uint32_t, originalHLength) X(uint32_t, oneCalSize) X(uint32_t, nohCalSize) X(uint32_t, loopNum)          \
    X(uint32_t, tailSize) X(uint32_t, nohTailSize) X(uint32_t, tmpTensorBSHPos) X(uint32_t, tmpTensorBSHSize)  \
    X(uint32_t, pdVarTensorPos) X(uint32_t, pdVarTensorSize) X(uint32_t, pdMeanTensorPos)                      \
    X(uint32_t, pdMeanTensorSize) X(uint32_t, x1TensorPos) X(uint32_t, x1TensorSize) X(uint32_t, x2TensorPos)  \
    X(uint32_t, x2TensorSize) X(uint32_t, x3TensorPos) X(uint32_t, x3TensorSize) X(uint32_t, tmpTensorPos)     \
    X(uint32_t, tmpTensorSize) X(uint32_t, tmpTensor1Pos) X(uint32_t, tmpTensor1Size) X(uint32_t, tmpTensor2Pos) \
    X(uint32_t, tmpTensor2Size) X(uint32_t, lastDimValueBack) X(uint32_t, lastDimValueBackMulTwo)

#define KGEN_LAYERNORM_GRAD_BETA_TILING_FIELDS(X)                                                              \
    X(uint32_t, stackBufferSize) X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength)                \
    X(uint32_t, originalHLength) X(uint32_t, bshLength) X(uint32_t, bsLength) X(uint32_t, oneCalSize)          \
    X(uint32_t, numberOfTmpBuf) X(uint32_t, loopRound) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos)    \
    X(uint32_t, bsTailSize) X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(uint32_t, gammaTempTensorPos) \
    X(uint32_t, betaTempTensorPos) X(uint32_t, inputDyTmpTensorPos) X(uint32_t, resForGammaTmpTensorPos)       \
    X(uint32_t, reserved)

#ifndef KGEN_KERNEL_TILING_FIELD
#define KGEN_KERNEL_TILING_FIELD(type, name) type name = 0;
#endif

struct LayerNormGradTiling {
    KGEN_LAYERNORM_GRAD_TILING_FIELDS(KGEN_KERNEL_TILING_FIELD)
};
struct LayerNormGradBetaTiling {
    KGEN_LAYERNORM_GRAD_BETA_TILING_FIELDS(KGEN_KERNEL_TILING_FIELD)
};

namespace AscendC {
namespace tiling {
using LayerNormGradTiling = ::LayerNormGradTiling;
using LayerNormGradBetaTiling = ::LayerNormGradBetaTiling;
}  // namespace tiling

struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};
}  // namespace AscendC

namespace kgen {
namespace adv {

/// LayerNormGrad's float buffers of oneCalSize elements (dav-2201): 9 for half, 4 for float with
/// isReuseSource, otherwise 6.
constexpr uint32_t lngrad_buffers(uint32_t ts, bool reuse) { return ts == 2 ? 9 : (reuse ? 4 : 6); }

/// GetLayerNormGradMaxMinTmpSize (dav-2201), bytes: buffers * typeSize * (BSH or H * H, the smaller
/// for the minimum, the larger for the maximum).
constexpr uint32_t lngrad_tmp(uint32_t b, uint32_t s, uint32_t h, uint32_t ts, bool reuse, bool max) {
    const uint32_t bsh = b * s * h, hh = h * h;
    const uint32_t base = max ? (bsh > hh ? bsh : hh) : (bsh < hh ? bsh : hh);
    return lngrad_buffers(ts, reuse) * base * ts;
}

/// GetLayerNormGradBetaMaxMinTmpSize, bytes: (4 for half, 2 for float) float rows of H (minimum) or
/// of B * S * H (maximum).
constexpr uint32_t lngrad_beta_tmp(uint32_t b, uint32_t s, uint32_t h, uint32_t ts, bool max) {
    return (ts == 2 ? 4u : 2u) * (max ? b * s * h : h) * 4u;
}

}  // namespace adv
}  // namespace kgen
