// kgen AscendC CPU emulator -- quantisation: AscendQuant, AscendDequant, AscendAntiQuant (the
// dav-2201 forms: per tensor and per channel).
//
// Documented rules followed (dav-2201 pages of each API):
//  * AscendQuant<T, isReuseSource, config>(int8 dst, src[, sharedTmpBuffer], ...): per tensor with
//    float scale and offset, or per channel with a T scale tensor (scaleCount values, element i uses
//    scale[i % scaleCount]) and a T offset scalar or tensor (offsetCount values). The NPU converts
//    src, scale and offset to half, computes Mul(s) then Add(s) in half (each step rounded to half)
//    and casts to int8 rounding half to even (CAST_RINT), saturating to [-128, 127].
//    src and dst may be the same memory. calCount elements; calCount and the counts of the
//    per-channel parameters must give 32-byte aligned lengths (`quant-count`).
//    Temporary bytes (GetAscendQuantMaxMinTmpSize): min 512, max max(2 * count, 512) rounded to 32.
//  * AscendDequant<dstT, scaleT, mode = DEQUANT_WITH_SINGLE_ROW>(dst, int32 src, deqScale tensor or
//    scaleT scalar[, sharedTmpBuffer], DequantParams {m, n, calCount}): src is [m, n] (n * 4 a
//    multiple of 32), dst is [m, n_dst] with n_dst = n rounded up to 32 bytes of dstT; for j <
//    calCount, dst[i][j] = dstT(float(src[i][j]) * float(deqScale[j] or the scalar)); the rest of
//    each dst row is not written. DEQUANT_WITH_SINGLE_ROW: {1, n, c} with c a multiple of
//    32 / sizeof(dstT) and n % c == 0 is computed as {n / c, c, c}. The calCount / no-count forms
//    use {1, calCount (or src size), calCount}. dstT: half, float or bfloat16_t; scaleT: float, half
//    or bfloat16_t (uint64_t packed scales are not emulated).
//    Temporary bytes (GetAscendDequantMaxMinTmpSize, srcShape [m, n] or [n]): (64 + rows * n + n + 8) * 4
//    with rows = 1 (min) or m (max).
//  * AscendAntiQuant<InputDataType (int8_t), OutputDataType (half / bfloat16_t), isTranspose>(dst, src,
//    offset, scale (tensors, or OutputDataType scalars; offset optional)[, sharedTmpBuffer], uint32_t k,
//    AntiQuantShapeInfo shapeInfo = {}): dst = scale * (src + offset). Not transposed: src is [k, N],
//    the parameters [H, N] (default H = 1) and row i uses parameter row i / (k / H). Transposed: src is
//    [N, k], the parameters [N, W] (default W = 1) and column j uses parameter column j / (k / W).
//    Without an AntiQuantShapeInfo the parameter shape is the 2-D ShapeInfo set on the offset (or
//    scale) tensor with SetShapeInfo, as the official example does.
//    Half output: computed in half (the add, then the multiply, each rounded to half); bfloat16_t
//    output: computed in float and rounded once. Temporary bytes: 0 for half output; for bfloat16_t
//    per tensor min 1024 (max src * 4), per channel (N parameters) transposed 80 * N * 4, not
//    transposed N * 8 + 64 * k * 4.
//  * Temporary buffers: a passed buffer below the minimum is `adv-tmp-too-small`; the forms without
//    it take it from free UB (`adv-tmp-no-room`). Quantisation parameters are not checked for range.
//
// Precision: the emulator reproduces the documented half arithmetic for AscendQuant and the half
// AscendAntiQuant; AscendDequant multiplies in float like the NPU.
//
// @api AscendQuant AscendDequant AscendAntiQuant AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG DequantParams
// @api DeQuantMode AntiQuantShapeInfo
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/quant_rules.h"
#include "kgen_sim/cast.h"

namespace AscendC {
struct AscendQuantConfig {
    constexpr AscendQuantConfig(uint32_t calc, uint32_t offsetCnt, uint32_t scaleCnt, uint32_t work)
        : calcCount(calc), offsetCount(offsetCnt), scaleCount(scaleCnt), workLocalSize(work) {}
    constexpr AscendQuantConfig(uint32_t calc, uint32_t offsetCnt, uint32_t scaleCnt, uint32_t work, bool off, int32_t kd,
                                RoundMode rm)
        : calcCount(calc), offsetCount(offsetCnt), scaleCount(scaleCnt), workLocalSize(work), hasOffset(off), kDim(kd),
          roundMode(rm) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
    bool hasOffset = false;
    int32_t kDim = 1;
    RoundMode roundMode = RoundMode::CAST_RINT;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};
}  // namespace AscendC

namespace kgen {
namespace adv {

/// half -> int8 with round-half-to-even and saturation (the Cast the documented AscendQuant ends with).
inline int8_t half_to_s8(half h) {
    float f = static_cast<float>(h);
    if (std::isnan(f)) return 0;
    float r = std::nearbyint(f);  // default FE_TONEAREST: ties to even
    if (r > 127.f) r = 127.f;
    if (r < -128.f) r = -128.f;
    return static_cast<int8_t>(r);
}

/// AscendQuant: scale(i) / offset(i) give the (already half) parameters of element i.
template <class T, class S, class O>
inline void quant(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n, uint32_t scaleCount, uint32_t offsetCount, S scale,
                  O offset) {
    static_assert(hf_v<T>, "AscendQuant takes half or float sources on dav-2201");
    const char* api = "AscendQuant";
    if (n == 0) return;
    if (n % 32 || (scaleCount && (uint64_t(scaleCount) * sizeof(T)) % 32) || (offsetCount && (uint64_t(offsetCount) * sizeof(T)) % 32))
        fail("quant-count", "%s: calCount (%u) and the per-channel parameter counts (%u, %u) must give 32-byte aligned "
             "lengths", api, n, scaleCount, offsetCount);
    operand(api, dst, n);
    operand(api, src, n);
    if (reinterpret_cast<uintptr_t>(dst.raw()) != reinterpret_cast<uintptr_t>(src.raw()))
        no_overlap(api, dst, n, src, n, "the source and destination tensors");
    Tmp t{tmp, quant_min_tmp(), quant_max_tmp(n)};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}});
    std::vector<int8_t> out(n);
    for (uint32_t i = 0; i < n; ++i) {
        half x = half(static_cast<float>(src.raw()[i]));
        half y = half(static_cast<float>(x) * static_cast<float>(scale(i)));
        half z = half(static_cast<float>(y) + static_cast<float>(offset(i)));
        out[i] = half_to_s8(z);
    }
    for (uint32_t i = 0; i < n; ++i) dst.raw()[i] = out[i];  // in place allowed: write after reading everything
    clobber_tmp(t);
    trace_call(api, uint64_t(n) * sizeof(T), 4);
}

template <class D, class S>
inline void dequant(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<int32_t>& src,
                    const AscendC::LocalTensor<S>* scaleT, S scalar, const AscendC::LocalTensor<uint8_t>* tmp,
                    AscendC::DequantParams p, bool singleRow) {
    static_assert(std::is_same_v<D, half> || std::is_same_v<D, float> || std::is_same_v<D, bfloat16_t>,
                  "AscendDequant: dstT must be half, float or bfloat16_t");
    static_assert(std::is_same_v<S, half> || std::is_same_v<S, float> || std::is_same_v<S, bfloat16_t>,
                  "kgen emulator: AscendDequant scaleT must be float, half or bfloat16_t (packed uint64_t scales are not emulated)");
    const char* api = "AscendDequant";
    const uint32_t epb = 32 / sizeof(D);
    if (singleRow && p.m == 1 && p.calCount && p.calCount % epb == 0 && p.n % p.calCount == 0)
        p = {p.n / p.calCount, p.calCount, p.calCount};
    if (p.m == 0 || p.n == 0) return;
    if ((uint64_t(p.n) * 4) % 32 || p.calCount > p.n)
        fail("quant-count", "%s: n (%u) must be a multiple of 8 int32 values and calCount (%u) at most n", api, p.n,
             p.calCount);
    const uint32_t nd = static_cast<uint32_t>(align_up(p.n, epb));
    operand(api, src, uint64_t(p.m) * p.n);
    operand(api, dst, uint64_t(p.m) * nd);
    if (scaleT) operand(api, *scaleT, p.calCount);
    no_overlap(api, dst, uint64_t(p.m) * nd, src, uint64_t(p.m) * p.n, "the source and destination tensors");
    Tmp t{tmp, dequant_tmp(1, p.n), dequant_tmp(p.m, p.n)};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, uint64_t(p.m) * nd)}, {lo_of(src), hi_of(src, uint64_t(p.m) * p.n)}});
    for (uint32_t i = 0; i < p.m; ++i)
        for (uint32_t j = 0; j < p.calCount; ++j) {
            float s = static_cast<float>(scaleT ? scaleT->raw()[j] : scalar);
            dst.raw()[uint64_t(i) * nd + j] = D(static_cast<float>(src.raw()[uint64_t(i) * p.n + j]) * s);
        }
    clobber_tmp(t);
    trace_call(api, uint64_t(p.m) * p.n * 4, 3);
}

/// AscendAntiQuant. off/scl: parameter tensors (nullptr: the scalars offS/sclS; hasOffset false: no offset).
template <class I, class O, bool tr>
inline void antiquant(const AscendC::LocalTensor<O>& dst, const AscendC::LocalTensor<I>& src, const AscendC::LocalTensor<O>* off,
                      const AscendC::LocalTensor<O>* scl, bool hasOffset, O offS, O sclS,
                      const AscendC::LocalTensor<uint8_t>* tmp, uint32_t k, const AscendC::AntiQuantShapeInfo& si) {
    static_assert(std::is_same_v<I, int8_t>, "kgen emulator: AscendAntiQuant takes int8_t inputs on dav-2201");
    static_assert(std::is_same_v<O, half> || std::is_same_v<O, bfloat16_t>, "AscendAntiQuant: output half or bfloat16_t");
    const char* api = "AscendAntiQuant";
    const uint64_t total = src.GetSize();
    if (k == 0 || total % k) fail("quant-count", "%s: k (%u) must divide the source size (%llu)", api, k, (unsigned long long)total);
    const uint32_t nn = static_cast<uint32_t>(total / k);  // the other axis (N)
    const bool perChannel = scl != nullptr;
    uint32_t ph = si.scaleHeight, pw = si.scaleWidth;
    if ((!ph || !pw) && perChannel) {  // no AntiQuantShapeInfo: the parameter tensor's own ShapeInfo, if set
        AscendC::ShapeInfo t = (off ? *off : *scl).GetShapeInfo();
        if (t.shapeDim == 2) { ph = t.shape[0]; pw = t.shape[1]; }
    }
    if (!ph || !pw) { ph = tr ? nn : 1; pw = tr ? 1 : nn; }
    const uint32_t groups = tr ? pw : ph;
    if (perChannel && (groups == 0 || k % groups))
        fail("quant-count", "%s: the parameter shape [%u, %u] does not divide k = %u into groups", api, ph, pw, k);
    const uint32_t gs = perChannel ? k / groups : k;
    operand(api, dst, total);
    operand(api, src, total);
    if (perChannel) {
        operand(api, *scl, uint64_t(ph) * pw);
        if (off) operand(api, *off, uint64_t(ph) * pw);
    }
    no_overlap(api, dst, total, src, total, "the source and destination tensors");
    const uint32_t scaleSize = perChannel ? ph * pw : 1;
    Tmp t{tmp, antiquant_min_tmp(std::is_same_v<O, half>, tr, scaleSize, k),
          antiquant_max_tmp(std::is_same_v<O, half>, tr, scaleSize, k, static_cast<uint32_t>(total))};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, total)}, {lo_of(src), hi_of(src, total)}});
    const uint32_t rows = tr ? nn : k, cols = tr ? k : nn;
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j) {
            float s = static_cast<float>(sclS), o = hasOffset ? static_cast<float>(offS) : 0.0f;
            if (perChannel) {
                uint64_t pi = tr ? uint64_t(i) * pw + j / gs : uint64_t(i / gs) * pw + j;
                s = static_cast<float>(scl->raw()[pi]);
                o = off ? static_cast<float>(off->raw()[pi]) : 0.0f;
            }
            float x = static_cast<float>(src.raw()[uint64_t(i) * cols + j]);
            O r;
            if constexpr (std::is_same_v<O, half>) {
                half a = hasOffset || off ? half(x + o) : half(x);
                r = half(static_cast<float>(a) * s);
            } else {
                r = O((x + o) * s);
            }
            dst.raw()[uint64_t(i) * cols + j] = r;
        }
    clobber_tmp(t);
    trace_call(api, total * sizeof(O), 3);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

// ---- AscendQuant --------------------------------------------------------------------------------
#define KGEN_AQ_TPL template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
#define KGEN_HALF_OF(v) half(static_cast<float>(v))
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                    const uint32_t calCount) {
    const half s = half(scale), o = half(offset);
    kgen::adv::quant(dstTensor, srcTensor, &sharedTmpBuffer, calCount, 0, 0, [=](uint32_t) { return s; },
                     [=](uint32_t) { return o; });
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                                    const float offset, const uint32_t calCount) {
    const half s = half(scale), o = half(offset);
    kgen::adv::quant(dstTensor, srcTensor, nullptr, calCount, 0, 0, [=](uint32_t) { return s; }, [=](uint32_t) { return o; });
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                                    const float offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize());
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                    const T offset, const uint32_t scaleCount, const uint32_t calCount) {
    kgen::adv::operand("AscendQuant", scaleTensor, scaleCount);
    const half o = KGEN_HALF_OF(offset);
    kgen::adv::quant(dstTensor, srcTensor, &sharedTmpBuffer, calCount, scaleCount, 0,
                     [&](uint32_t i) { return KGEN_HALF_OF(scaleTensor.raw()[i % scaleCount]); }, [=](uint32_t) { return o; });
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                                    const uint32_t calCount) {
    kgen::adv::operand("AscendQuant", scaleTensor, scaleCount);
    const half o = KGEN_HALF_OF(offset);
    kgen::adv::quant(dstTensor, srcTensor, nullptr, calCount, scaleCount, 0,
                     [&](uint32_t i) { return KGEN_HALF_OF(scaleTensor.raw()[i % scaleCount]); }, [=](uint32_t) { return o; });
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                    const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset, scaleTensor.GetSize(),
                                          srcTensor.GetSize());
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<T>& scaleTensor, const T offset) {
    AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offset, scaleTensor.GetSize(), srcTensor.GetSize());
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                    const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                    const uint32_t offsetCount, const uint32_t calCount) {
    kgen::adv::operand("AscendQuant", scaleTensor, scaleCount);
    kgen::adv::operand("AscendQuant", offsetTensor, offsetCount);
    kgen::adv::quant(dstTensor, srcTensor, &sharedTmpBuffer, calCount, scaleCount, offsetCount,
                     [&](uint32_t i) { return KGEN_HALF_OF(scaleTensor.raw()[i % scaleCount]); },
                     [&](uint32_t i) { return KGEN_HALF_OF(offsetTensor.raw()[i % offsetCount]); });
}
KGEN_AQ_TPL inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                    const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount) {
    kgen::adv::operand("AscendQuant", scaleTensor, scaleCount);
    kgen::adv::operand("AscendQuant", offsetTensor, offsetCount);
    kgen::adv::quant(dstTensor, srcTensor, nullptr, calCount, scaleCount, offsetCount,
                     [&](uint32_t i) { return KGEN_HALF_OF(scaleTensor.raw()[i % scaleCount]); },
                     [&](uint32_t i) { return KGEN_HALF_OF(offsetTensor.raw()[i % offsetCount]); });
}
#undef KGEN_AQ_TPL
#undef KGEN_HALF_OF

// ---- AscendDequant ------------------------------------------------------------------------------
#define KGEN_DQ_TPL template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
#define KGEN_DQ_SINGLE (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW)
KGEN_DQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                      const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      DequantParams params) {
    kgen::adv::dequant<dstT, scaleT>(dstTensor, srcTensor, &deqScale, scaleT(), &sharedTmpBuffer, params, KGEN_DQ_SINGLE);
}
KGEN_DQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                      const LocalTensor<scaleT>& deqScale, DequantParams params) {
    kgen::adv::dequant<dstT, scaleT>(dstTensor, srcTensor, &deqScale, scaleT(), nullptr, params, KGEN_DQ_SINGLE);
}
KGEN_DQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                      const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const uint32_t calCount) {
    kgen::adv::dequant<dstT, scaleT>(dstTensor, srcTensor, &deqScale, scaleT(), &sharedTmpBuffer, {1, calCount, calCount},
                                     KGEN_DQ_SINGLE);
}
KGEN_DQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                      const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
    kgen::adv::dequant<dstT, scaleT>(dstTensor, srcTensor, &deqScale, scaleT(), nullptr, {1, calCount, calCount},
                                     KGEN_DQ_SINGLE);
}
KGEN_DQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                      const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params) {
    kgen::adv::dequant<dstT, scaleT>(dstTensor, srcTensor, nullptr, deqScale, &sharedTmpBuffer, params, KGEN_DQ_SINGLE);
}
KGEN_DQ_TPL inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                      const scaleT deqScale, DequantParams params) {
    kgen::adv::dequant<dstT, scaleT>(dstTensor, srcTensor, nullptr, deqScale, nullptr, params, KGEN_DQ_SINGLE);
}
#undef KGEN_DQ_TPL
#undef KGEN_DQ_SINGLE

// ---- AscendAntiQuant ----------------------------------------------------------------------------
#define KGEN_AAQ_TPL template <typename InputDataType, typename OutputDataType, bool isTranspose>
#define KGEN_AAQ(...) kgen::adv::antiquant<InputDataType, OutputDataType, isTranspose>(__VA_ARGS__)
KGEN_AAQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                         const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                         const AntiQuantShapeInfo& shapeInfo = {}) {
    KGEN_AAQ(dst, src, &offset, &scale, true, OutputDataType(), OutputDataType(), &sharedTmpBuffer, k, shapeInfo);
}
KGEN_AAQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                         const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    KGEN_AAQ(dst, src, nullptr, &scale, false, OutputDataType(), OutputDataType(), &sharedTmpBuffer, k, shapeInfo);
}
KGEN_AAQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                         const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                                         const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    KGEN_AAQ(dst, src, &offset, &scale, true, OutputDataType(), OutputDataType(), nullptr, k, shapeInfo);
}
KGEN_AAQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                         const OutputDataType offset, const OutputDataType scale,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                         const AntiQuantShapeInfo& shapeInfo = {}) {
    KGEN_AAQ(dst, src, nullptr, nullptr, true, offset, scale, &sharedTmpBuffer, k, shapeInfo);
}
KGEN_AAQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                         const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    KGEN_AAQ(dst, src, nullptr, nullptr, false, OutputDataType(), scale, &sharedTmpBuffer, k, shapeInfo);
}
KGEN_AAQ_TPL inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                         const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                                         const AntiQuantShapeInfo& shapeInfo = {}) {
    KGEN_AAQ(dst, src, nullptr, nullptr, true, offset, scale, nullptr, k, shapeInfo);
}
#undef KGEN_AAQ_TPL
#undef KGEN_AAQ

}  // namespace AscendC
