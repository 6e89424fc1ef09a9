// kgen AscendC CPU emulator -- LayerNormGrad and LayerNormGradBeta (the backward pass of LayerNorm,
// ND format, [B, S, H] inputs).
//
// Documented rules followed (dav-2201 LayerNormGrad / LayerNormGradBeta pages and their tiling pages):
//  * LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
//    inputGamma[, sharedTmpBuffer], T epsilon, LayerNormGradTiling& tiling, shapeInfo = {}). Per (b, s)
//    row over H, with r = (variance + epsilon)^-0.5:
//      pd_xl = dy * gamma
//      pd_var = sum(-0.5 * pd_xl * (x - mean) * r^3)
//      pd_mean = sum(-pd_xl * r) + pd_var / H * sum(-2 * (x - mean))
//      pd_x = pd_xl * r + pd_var * 2 / H * (x - mean) + pd_mean / H      -> outputPdX
//      res_for_gamma = (x - mean) * r                                     -> resForGamma
//    B, S, H and the real H come from the tiling (GetLayerNormGradNDTilingInfo); inputVariance and
//    inputMean hold B * S values (LayerNorm's outputs), inputGamma H.
//  * LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy
//    [, sharedTmpBuffer], LayerNormGradBetaTiling& tiling): for every column h of the real H,
//    pd_gamma[h] = sum over the B * S rows of dy * res_for_gamma, pd_beta[h] = sum of dy. The outputs
//    are overwritten (not accumulated across calls); columns past the real H are left alone.
//  * T is half or float (half is computed in float and rounded once); isReuseSource (float only,
//    half: compile-time error) lets the NPU overwrite inputX/inputDy (LayerNormGrad) or resForGamma
//    (LayerNormGradBeta) with intermediates: their contents are unspecified afterwards.
//  * H * sizeof(T) must be a multiple of 32 (`layernorm-shape`). Sources and destinations may be the
//    same tensors (documented); the emulator reads every input before writing.
//  * The tiling must be filled (oneCalSize > 0, else `layernorm-tiling`). LayerNormGrad's sharedTmpBuffer
//    needs at least GetLayerNormGradMaxMinTmpSize's minimum and the tiling's stackBufferSize bytes;
//    LayerNormGradBeta's at least its minimum, stackBufferSize floats and the tiling's last buffer:
//    `adv-tmp-too-small` (`adv-tmp-no-room` for the forms without it). A LayerNormGrad tiling whose
//    buffers (positions in floats, oneCalSize each) reach past the buffer is a `layernorm-tiling`
//    warning: the dav-2201 tiling rounds rows up to whole blocks, so tiny inputs overrun the minimum.
//  * Only storage H == original H is supported (padding columns must hold zeros): a padded H is a
//    `layernorm-padded-h` warning; the emulator then reduces over the real columns only (the NPU
//    reduces over all hLength columns, so its pd_mean and pd_x differ).
// Precision: double inside, each output rounded once; the NPU works in float (r through Sqrt and Div).
//
// @api LayerNormGrad LayerNormGradBeta
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/layernorm_grad_types.h"

namespace kgen {
namespace adv {

struct LnGradDims {
    uint32_t rows, h, oh;
};

inline LnGradDims lngrad_dims(const char* api, uint32_t b, uint32_t s, uint32_t h, uint32_t oh, uint32_t calSize,
                              uint32_t typeSize) {
    if (calSize == 0 || b == 0 || s == 0 || h == 0)
        fail("layernorm-tiling", "%s: the tiling is empty (oneCalSize %u, [%u, %u, %u]): fill it on the host with "
             "Get%sNDTilingInfo and pass it in the tiling data", api, calSize, b, s, h, api);
    if ((uint64_t(h) * typeSize) % 32)
        fail("layernorm-shape", "%s: H = %u must be a multiple of 32 bytes (%u elements)", api, h, 32 / typeSize);
    if (oh == 0) oh = h;
    if (oh > h) fail("layernorm-shape", "%s: the original H (%u) is larger than H (%u)", api, oh, h);
    if (oh < h)
        warn("layernorm-padded-h", "%s: H is padded (%u of %u columns are real); only an unpadded H is supported, the NPU "
             "reduces over all %u columns", api, oh, h, h);
    return LnGradDims{b * s, h, oh};
}

template <class T>
inline void layernorm_grad(const AscendC::LocalTensor<T>& pdx, const AscendC::LocalTensor<T>& resg,
                           const AscendC::LocalTensor<T>& dy, const AscendC::LocalTensor<T>& x,
                           const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& mean,
                           const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>* tmp, T epsilon,
                           const ::LayerNormGradTiling& tl, bool reuse) {
    static_assert(hf_v<T>, "LayerNormGrad supports half and float only on dav-2201");
    const char* api = "LayerNormGrad";
    const LnGradDims d = lngrad_dims(api, tl.bLength, tl.sLength, tl.hLength, tl.originalHLength, tl.oneCalSize, sizeof(T));
    const uint64_t n = uint64_t(d.rows) * d.h;
    for (auto* t : {&pdx, &resg, &dy, &x}) operand(api, *t, n);
    operand(api, var, d.rows);
    operand(api, mean, d.rows);
    operand(api, gamma, d.h);
    uint32_t need = lngrad_tmp(tl.bLength, tl.sLength, d.h, sizeof(T), reuse, false);
    if (tl.stackBufferSize > need) need = tl.stackBufferSize;
    Tmp t{tmp, need, need};
    check_tmp(api, t, {{lo_of(pdx), hi_of(pdx, n)}, {lo_of(resg), hi_of(resg, n)}, {lo_of(dy), hi_of(dy, n)},
                       {lo_of(x), hi_of(x, n)}});
    const uint64_t last = std::max({tl.tmpTensorBSHPos, tl.pdVarTensorPos, tl.pdMeanTensorPos, tl.x1TensorPos,
                                    tl.x2TensorPos, tl.x3TensorPos, tl.tmpTensorPos, tl.tmpTensor1Pos, tl.tmpTensor2Pos});
    const uint64_t used = tl.loopNum ? tl.oneCalSize : tl.tailSize;
    const uint64_t have = tmp ? tmp->GetSize() : need;
    if ((last + used) * 4 > have)
        warn("layernorm-tiling", "%s: the tiling places its last buffer at float %llu (%llu floats), past the %llu bytes of "
             "the temporary buffer: on the NPU it overwrites whatever follows in UB", api, (unsigned long long)last,
             (unsigned long long)used, (unsigned long long)have);
    const double eps = static_cast<float>(epsilon);
    std::vector<double> out(n), res(n);
    std::vector<double> g(d.h), xv(d.h), xl(d.h);
    for (uint32_t k = 0; k < d.h; ++k) g[k] = static_cast<float>(gamma.raw()[k]);
    for (uint64_t r = 0; r < d.rows; ++r) {
        const double mu = static_cast<float>(mean.raw()[r]);
        const double rs = 1.0 / std::sqrt(static_cast<float>(var.raw()[r]) + eps);
        double pvar = 0, pm1 = 0, sx2 = 0;
        for (uint32_t k = 0; k < d.h; ++k) {
            xv[k] = static_cast<float>(x.raw()[r * d.h + k]) - mu;
            xl[k] = static_cast<float>(dy.raw()[r * d.h + k]) * g[k];
            if (k >= d.oh) continue;
            pvar += -0.5 * xl[k] * xv[k] * rs * rs * rs;
            pm1 += -xl[k] * rs;
            sx2 += -2.0 * xv[k];
        }
        const double pmean = pm1 + pvar / d.oh * sx2;
        for (uint32_t k = 0; k < d.h; ++k) {
            out[r * d.h + k] = xl[k] * rs + pvar * 2.0 / d.oh * xv[k] + pmean / d.oh;
            res[r * d.h + k] = xv[k] * rs;
        }
    }
    for (uint64_t i = 0; i < n; ++i) {  // written after every read: sources and destinations may alias
        pdx.raw()[i] = T(static_cast<float>(out[i]));
        resg.raw()[i] = T(static_cast<float>(res[i]));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 14);
}

template <class T>
inline void layernorm_grad_beta(const AscendC::LocalTensor<T>& pdGamma, const AscendC::LocalTensor<T>& pdBeta,
                                const AscendC::LocalTensor<T>& resg, const AscendC::LocalTensor<T>& dy,
                                const AscendC::LocalTensor<uint8_t>* tmp, const ::LayerNormGradBetaTiling& tl) {
    static_assert(hf_v<T>, "LayerNormGradBeta supports half and float only on dav-2201");
    const char* api = "LayerNormGradBeta";
    const LnGradDims d = lngrad_dims(api, tl.bLength, tl.sLength, tl.hLength, tl.originalHLength, tl.oneCalSize, sizeof(T));
    const uint64_t n = uint64_t(d.rows) * d.h;
    operand(api, pdGamma, d.h);
    operand(api, pdBeta, d.h);
    operand(api, resg, n);
    operand(api, dy, n);
    no_overlap(api, pdGamma, d.h, pdBeta, d.h, "outputPdGamma and outputPdBeta");
    uint64_t need = lngrad_beta_tmp(tl.bLength, tl.sLength, d.h, sizeof(T), false);
    need = std::max<uint64_t>(need, uint64_t(tl.stackBufferSize) * 4);
    need = std::max<uint64_t>(need, (uint64_t(tl.resForGammaTmpTensorPos) + tl.oneCalSize) * 4);
    Tmp t{tmp, static_cast<uint32_t>(need), static_cast<uint32_t>(need)};
    check_tmp(api, t, {{lo_of(resg), hi_of(resg, n)}, {lo_of(dy), hi_of(dy, n)}, {lo_of(pdGamma), hi_of(pdGamma, d.h)},
                       {lo_of(pdBeta), hi_of(pdBeta, d.h)}});
    std::vector<double> sg(d.oh, 0.0), sb(d.oh, 0.0);
    for (uint64_t r = 0; r < d.rows; ++r)
        for (uint32_t k = 0; k < d.oh; ++k) {
            const double v = static_cast<float>(dy.raw()[r * d.h + k]);
            sg[k] += v * static_cast<float>(resg.raw()[r * d.h + k]);
            sb[k] += v;
        }
    for (uint32_t k = 0; k < d.oh; ++k) {
        pdGamma.raw()[k] = T(static_cast<float>(sg[k]));
        pdBeta.raw()[k] = T(static_cast<float>(sb[k]));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 4);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

#define KGEN_LNG_REUSE \
    static_assert(!(isReuseSource && sizeof(T) == 2), "LayerNormGrad/LayerNormGradBeta: isReuseSource is for float only")

template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                          const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}) {
    KGEN_LNG_REUSE;
    if (shapeInfo.dataFormat != DataFormat::ND) kgen::fail("layernorm-format", "LayerNormGrad supports DataFormat::ND only");
    kgen::adv::layernorm_grad<T>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                 &sharedTmpBuffer, epsilon, tiling, isReuseSource);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                          const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                          const LayerNormGradShapeInfo& shapeInfo = {}) {
    KGEN_LNG_REUSE;
    if (shapeInfo.dataFormat != DataFormat::ND) kgen::fail("layernorm-format", "LayerNormGrad supports DataFormat::ND only");
    kgen::adv::layernorm_grad<T>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, nullptr,
                                 epsilon, tiling, isReuseSource);
}

template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling) {
    KGEN_LNG_REUSE;
    kgen::adv::layernorm_grad_beta<T>(outputPdGamma, outputPdBeta, resForGamma, inputDy, &sharedTmpBuffer, tiling);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              LayerNormGradBetaTiling& tiling) {
    KGEN_LNG_REUSE;
    kgen::adv::layernorm_grad_beta<T>(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr, tiling);
}
#undef KGEN_LNG_REUSE

}  // namespace AscendC
