// kgen host-side emulation -- the host tiling of LayerNormGrad and LayerNormGradBeta: the tiling-data
// classes optiling::LayerNormGradTiling / LayerNormGradBetaTiling, GetLayerNormGradMaxMinTmpSize,
// GetLayerNormGradNDTilingInfo, GetLayerNormGradBetaMaxMinTmpSize, GetLayerNormGradBetaNDTilingInfo.
//
// Documented rules followed (LayerNormGrad Tiling / LayerNormGradBeta Tiling pages and their public
// host implementation for dav-2201; srcShape is {B, S, storage H, original H}; sizes in
// adv/layernorm_grad_types.h):
//  * GetLayerNormGradMaxMinTmpSize: bufs * typeSize * min(B*S*H, H*H) bytes minimum, the same with
//    max(...) maximum; bufs = 9 (half), 4 (float with isReuseSource), 6 (float).
//  * GetLayerNormGradNDTilingInfo(shape, stackBufferSize, typeSize, isReuseSource, tiling): oneCalSize =
//    stackBufferSize / 4 / bufs rounded down to whole H rows (none: error, tiling untouched); its row
//    count nohCalSize is then rounded UP to a whole block of rows (8 float, 16 half) and oneCalSize =
//    nohCalSize * H. Buffers of oneCalSize floats each: tmpTensorBSH at 0, pdVar at 1, pdMean at 2;
//    x1, x2, x3 at 3, 4, 5 (float with isReuseSource: x1 = x2 = 0 (unused), x3 at 3); for half tmpTensor,
//    tmpTensor1, tmpTensor2 after x3 (else at 0); every size field is oneCalSize. loopNum = BSH /
//    oneCalSize, tailSize = BSH % oneCalSize, nohTailSize = tailSize / H, lastDimValueBack and
//    lastDimValueBackMulTwo the bits of 1 / originalH and 2 / originalH; stackBufferSize as passed.
//  * GetLayerNormGradBetaMaxMinTmpSize: (4 half, 2 float) * 4 bytes per element of H (minimum) or of
//    B*S*H (maximum).
//  * GetLayerNormGradBetaNDTilingInfo: stackBufferSize = bytes / 4 floats, at least 2H (else error);
//    oneCalSize = those floats (half: (floats - 2H) / 2, numberOfTmpBuf 2; float: numberOfTmpBuf 1)
//    rounded down to whole H rows (none: error) and capped at B*S*H; loopRound, inputTailSize,
//    inputTailPos, bsTailSize, bshCurLength = oneCalSize, bsCurLength = oneCalSize / H; half places
//    gamma at 0, beta at H, dy at 2H and resForGamma at 2H + oneCalSize, float all at 0.
// Emulator: a type size other than 2 or 4, a shape that is not 4-D or too small a buffer is reported on
// stderr (`norm-tiling`) as CANN's host checks log it, and the outputs are left untouched.
//
// @api GetLayerNormGradMaxMinTmpSize GetLayerNormGradNDTilingInfo GetLayerNormGradBetaMaxMinTmpSize
// @api GetLayerNormGradBetaNDTilingInfo
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "graph/types.h"
#include "kgen_sim/adv/layernorm_grad_types.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
KGEN_LAYERNORM_GRAD_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
KGEN_LAYERNORM_GRAD_BETA_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
// Not registered, like SoftMaxTiling: kernel_operator.h has the kernel-side structs.
}  // namespace optiling

namespace AscendC {
namespace kgen_host {

/// {B, S, H, original H} after the documented checks; empty when a check failed.
inline std::vector<uint32_t> lngrad_dims(const char* api, const ge::Shape& s, uint32_t ts) {
    std::vector<uint32_t> d;
    if (ts != 2 && ts != 4) {
        ::kgen::host::host_warn("norm-tiling", "%s: type size %u is not supported (half: 2, float: 4)", api, ts);
        return d;
    }
    if (s.GetDimNum() != 4) {
        ::kgen::host::host_warn("norm-tiling", "%s: srcShape has %zu dimensions, expected 4 {B, S, H, original H}", api, s.GetDimNum());
        return d;
    }
    for (size_t i = 0; i < 4; ++i) {
        if (s.GetDim(i) <= 0) {
            ::kgen::host::host_warn("norm-tiling", "%s: srcShape[%zu] must be positive", api, i);
            return {};
        }
        d.push_back(static_cast<uint32_t>(s.GetDim(i)));
    }
    return d;
}
inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

template <class Tl>
inline void lngrad_fill(const ge::Shape& s, uint32_t stack, uint32_t ts, bool reuse, Tl& t) {
    const char* api = "GetLayerNormGradNDTilingInfo";
    std::vector<uint32_t> d = lngrad_dims(api, s, ts);
    if (d.empty()) return;
    const uint32_t h = d[2], bsh = d[0] * d[1] * h, bufs = ::kgen::adv::lngrad_buffers(ts, reuse);
    uint32_t one = stack / 4 / bufs / h * h;
    if (one == 0) {
        ::kgen::host::host_warn("norm-tiling", "%s: stackBufferSize %u holds no row of H = %u in %u buffers", api,
                     stack, h, bufs);
        return;
    }
    const uint32_t blk = ts == 4 ? 8 : 16;
    const uint32_t noh = (one / h + blk - 1) / blk * blk;
    one = noh * h;
    const bool r4 = reuse && ts == 4;
    t.stackBufferSize = stack;
    t.bLength = d[0]; t.sLength = d[1]; t.hLength = h; t.originalHLength = d[3];
    t.oneCalSize = one; t.nohCalSize = noh;
    t.loopNum = bsh / one; t.tailSize = bsh % one; t.nohTailSize = bsh % one / h;
    t.tmpTensorBSHPos = 0; t.pdVarTensorPos = one; t.pdMeanTensorPos = 2 * one;
    t.x1TensorPos = r4 ? 0 : 3 * one; t.x2TensorPos = r4 ? 0 : 4 * one; t.x3TensorPos = r4 ? 3 * one : 5 * one;
    t.tmpTensorPos = ts == 2 ? t.x3TensorPos + one : 0;
    t.tmpTensor1Pos = ts == 2 ? t.x3TensorPos + 2 * one : 0;
    t.tmpTensor2Pos = ts == 2 ? t.x3TensorPos + 3 * one : 0;
    t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = t.x1TensorSize = t.x2TensorSize = t.x3TensorSize = one;
    t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = one;
    t.lastDimValueBack = float_bits(1.0f / static_cast<float>(d[3]));
    t.lastDimValueBackMulTwo = float_bits(2.0f / static_cast<float>(d[3]));
}

template <class Tl>
inline void lngrad_beta_fill(const ge::Shape& s, uint32_t stack, uint32_t ts, Tl& t) {
    const char* api = "GetLayerNormGradBetaNDTilingInfo";
    std::vector<uint32_t> d = lngrad_dims(api, s, ts);
    if (d.empty()) return;
    const uint32_t h = d[2], bsh = d[0] * d[1] * h, floats = stack / 4;
    if (floats < 2 * h) {
        ::kgen::host::host_warn("norm-tiling", "%s: stackBufferSize %u bytes is below two rows of H = %u floats",
                     api, stack, h);
        return;
    }
    uint32_t one = ts == 2 ? (floats - 2 * h) / 2 : floats;
    one = one / h * h;
    if (one == 0) {
        ::kgen::host::host_warn("norm-tiling", "%s: stackBufferSize %u bytes holds no row of H = %u", api, stack, h);
        return;
    }
    if (one > bsh) one = bsh;
    t.stackBufferSize = floats;
    t.bLength = d[0]; t.sLength = d[1]; t.hLength = h; t.originalHLength = d[3];
    t.bshLength = bsh; t.bsLength = d[0] * d[1]; t.oneCalSize = one; t.numberOfTmpBuf = ts == 2 ? 2 : 1;
    t.loopRound = bsh / one; t.inputTailSize = bsh % one; t.inputTailPos = bsh - bsh % one; t.bsTailSize = bsh % one / h;
    t.bshCurLength = one; t.bsCurLength = one / h;
    t.gammaTempTensorPos = 0;
    t.betaTempTensorPos = ts == 2 ? h : 0;
    t.inputDyTmpTensorPos = ts == 2 ? 2 * h : 0;
    t.resForGammaTmpTensorPos = ts == 2 ? 2 * h + one : 0;
    t.reserved = 0;
}

}  // namespace kgen_host

// ---- LayerNormGrad -------------------------------------------------------------------------------
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
    std::vector<uint32_t> d = kgen_host::lngrad_dims("GetLayerNormGradMaxMinTmpSize", srcShape, typeSize);
    if (d.empty()) return;
    maxValue = ::kgen::adv::lngrad_tmp(d[0], d[1], d[2], typeSize, isReuseSource, true);
    minValue = ::kgen::adv::lngrad_tmp(d[0], d[1], d[2], typeSize, isReuseSource, false);
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                         const bool isReuseSource, optiling::LayerNormGradTiling& tiling) {
    kgen_host::lngrad_fill(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                         const bool isReuseSource, ::LayerNormGradTiling& tiling) {
    kgen_host::lngrad_fill(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}

// ---- LayerNormGradBeta ---------------------------------------------------------------------------
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                              uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    std::vector<uint32_t> d = kgen_host::lngrad_dims("GetLayerNormGradBetaMaxMinTmpSize", srcShape, typeSize);
    if (d.empty()) return;
    maxValue = ::kgen::adv::lngrad_beta_tmp(d[0], d[1], d[2], typeSize, true);
    minValue = ::kgen::adv::lngrad_beta_tmp(d[0], d[1], d[2], typeSize, false);
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
    (void)isReuseSource;
    kgen_host::lngrad_beta_fill(srcShape, stackBufferSize, typeSize, tiling);
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             ::LayerNormGradBetaTiling& tiling) {
    (void)isReuseSource;
    kgen_host::lngrad_beta_fill(srcShape, stackBufferSize, typeSize, tiling);
}

}  // namespace AscendC
