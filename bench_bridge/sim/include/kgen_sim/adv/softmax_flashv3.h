// kgen AscendC CPU emulator -- SoftmaxFlashV3 (the "PASA" softmax step with a running row mean, ND).
//
// Documented rules followed (dav-2201 SoftmaxFlashV3 page, its formula and the golden model of the
// official example; s = alpha / (1 - alpha), the input seen as [M, K], baseK = K / splitMeanCnt):
//  * T (src, dst, expMax) is half and U (mean, expSum, max and their inputs) is float: nothing else.
//  * Per row, on x = float(src):
//      A1[q], q < 8: the mean of group q, where group q holds the q-th 64-element chunk of the first
//                    512 columns plus, from every later 64-element chunk, its q-th 32-byte block
//                    (the grouping the documented BlockReduceSum/Add pseudo-code produces);
//      A2 = mean(A1) (the row mean);  x'[j] = x[j] - (A2 - A1[j / baseK]) * s  (contiguous groups);
//      M1 = max x'.
//    isUpdate = false: mean = A2, max = M1, dst = exp(x' - M1), expSum = sum dst (expMax untouched).
//    isUpdate = true, with inMean/inMax/inExpSum and params.loopCnt = n:
//      mean = (A2 + inMean * (n - 1)) / n, C = (A2 - mean) * s, P = (inMean - mean) * s,
//      max = max(C + M1, P + inMax), dst = exp(x' - (max - C)), expMax = exp(inMax - max + P),
//      expSum = expMax * inExpSum + sum dst.
//    dst is not normalised. mean/expSum/max/in* hold one 32-byte block per row (8 equal floats),
//    expMax one block of 16 equal halves per row.
//  * Shape: params.srcM x params.srcK (both 0: taken from srcTensor's ShapeInfo). K >= 512 and a
//    multiple of 64, M a multiple of 8, oriSrcM/oriSrcK equal to srcM/srcK (no padded shapes),
//    splitMeanCnt = 8, loopCnt >= 1: otherwise `softmax-shape` / `softmax-params` error.
//  * src and dst may be the same tensor, and so may mean/inMean, max/inMax, expSum/inExpSum; other
//    overlaps are `operand-overlap` errors. The emulator reads every input before writing.
//  * Temporary buffer (GetSoftMaxFlashV3MaxMinTmpSize, dav-2201): (5 * 8 + 2 * K + 64) floats per row of
//    the tiling's splitM rows; less than one row is `adv-tmp-too-small` (`adv-tmp-no-room` for the
//    form without sharedTmpBuffer). A tiling with splitM = 0 is a `softmax-tiling` error.
//  * isReuseSource, isBasicBlock, isDataFormatNZ and config are reserved (defaults only).
// Emulator note: with update and mean/inMean or max/inMax in place, the dav-2201 library computes
// max before it reads inMax/inMean (so P = 0 and expMax = 1 there); the emulator follows the
// documented formula. Precision: double inside, each output rounded once; the NPU works in float
// and s (15 for alpha = 0.9375) magnifies the rounding of the means.
//
// @api SoftmaxFlashV3 SoftMaxParams
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/softmax_ext_rules.h"
#include "kgen_sim/adv/softmax_types.h"

namespace AscendC {
struct SoftMaxParams {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    uint32_t loopCnt = 1;
    uint32_t splitMeanCnt = 8;
    float alpha = 0.9375f;
    constexpr SoftMaxParams() = default;
    constexpr SoftMaxParams(uint32_t m, uint32_t k, uint32_t om, uint32_t ok, uint32_t loop = 1, uint32_t split = 8,
                            float a = 0.9375f)
        : srcM(m), srcK(k), oriSrcM(om), oriSrcK(ok), loopCnt(loop), splitMeanCnt(split), alpha(a) {}
};
}  // namespace AscendC

namespace kgen {
namespace adv {

/// The eight group means A1 of one row (see the header comment for the grouping).
inline void flashv3_group_means(const std::vector<double>& x, uint32_t k, double out[8]) {
    const uint32_t baseK = k / 8;
    for (uint32_t q = 0; q < 8; ++q) {
        double s = 0;
        for (uint32_t j = 0; j < 64; ++j) s += x[64 * q + j];
        for (uint32_t t = 0; 512 + 64 * t < k; ++t)
            for (uint32_t i = 0; i < 8; ++i) s += x[512 + 64 * t + 8 * q + i];
        out[q] = s / baseK;
    }
}

struct Fv3Args {
    const AscendC::LocalTensor<half>* dst;
    const AscendC::LocalTensor<float>* mean;
    const AscendC::LocalTensor<float>* sum;
    const AscendC::LocalTensor<float>* max;
    const AscendC::LocalTensor<half>* src;
    const AscendC::LocalTensor<half>* expMax;
    const AscendC::LocalTensor<float>* inMean;
    const AscendC::LocalTensor<float>* inSum;
    const AscendC::LocalTensor<float>* inMax;
    const AscendC::LocalTensor<uint8_t>* tmp;
};

inline void flashv3_shape(const char* api, const AscendC::SoftMaxParams& p, const AscendC::LocalTensor<half>& src,
                          uint32_t& m, uint32_t& k) {
    m = p.srcM;
    k = p.srcK;
    uint32_t om = p.oriSrcM, ok = p.oriSrcK;
    if (m == 0 || k == 0) {  // documented: the shape then comes from the source tensor's ShapeInfo
        AscendC::ShapeInfo si = src.GetShapeInfo();
        const uint8_t dims = si.originalShapeDim ? si.originalShapeDim : si.shapeDim;
        const uint32_t* sh = si.originalShapeDim ? si.originalShape : si.shape;
        m = 1;
        k = dims ? sh[dims - 1] : 0;
        for (uint8_t i = 0; i + 1 < dims; ++i) m *= sh[i];
        om = m;
        ok = k;
    }
    if ((om && om != m) || (ok && ok != k))
        fail("softmax-shape", "%s: padded shapes are not supported: oriSrcM x oriSrcK (%u x %u) must equal srcM x srcK "
             "(%u x %u)", api, om, ok, m, k);
    if (k < 512 || k % 64 || m == 0 || m % 8)
        fail("softmax-shape", "%s: the shape [%u, %u] is not supported: the last axis must be a multiple of 64 and at "
             "least 512, the other axes' product a multiple of 8", api, m, k);
}

inline void softmax_flashv3(bool update, const Fv3Args& a, const ::SoftMaxTiling& tiling, const AscendC::SoftMaxParams& p) {
    const char* api = "SoftmaxFlashV3";
    uint32_t m = 0, k = 0;
    flashv3_shape(api, p, *a.src, m, k);
    if (p.splitMeanCnt != 8)
        fail("softmax-params", "%s: splitMeanCnt is %u; only 8 is supported", api, p.splitMeanCnt);
    if (update && p.loopCnt < 1) fail("softmax-params", "%s: loopCnt must be at least 1 with isUpdate = true", api);
    if (tiling.splitM == 0)
        fail("softmax-tiling", "%s: the SoftMaxTiling has no rows per split (splitM = 0): fill it with "
             "SoftMaxFlashV3TilingFunc and a workspace of at least one row", api);
    const uint64_t n = uint64_t(m) * k, nu = uint64_t(m) * 8, nt = uint64_t(m) * 16;
    operand(api, *a.dst, n);
    operand(api, *a.src, n);
    for (auto* t : {a.mean, a.sum, a.max}) operand(api, *t, nu);
    if (update) {
        operand(api, *a.expMax, nt);
        for (auto* t : {a.inMean, a.inSum, a.inMax}) operand(api, *t, nu);
    }
    if (lo_of(*a.dst) != lo_of(*a.src)) no_overlap(api, *a.dst, n, *a.src, n, "srcTensor and dstTensor");
    no_overlap(api, *a.mean, nu, *a.dst, n, "meanTensor and dstTensor");
    no_overlap(api, *a.sum, nu, *a.dst, n, "expSumTensor and dstTensor");
    no_overlap(api, *a.max, nu, *a.dst, n, "maxTensor and dstTensor");
    no_overlap(api, *a.mean, nu, *a.sum, nu, "meanTensor and expSumTensor");
    no_overlap(api, *a.mean, nu, *a.max, nu, "meanTensor and maxTensor");
    no_overlap(api, *a.sum, nu, *a.max, nu, "expSumTensor and maxTensor");
    if (update) {
        no_overlap(api, *a.expMax, nt, *a.dst, n, "expMaxTensor and dstTensor");
        if (lo_of(*a.inMean) != lo_of(*a.mean)) no_overlap(api, *a.inMean, nu, *a.mean, nu, "inMeanTensor and meanTensor");
        if (lo_of(*a.inMax) != lo_of(*a.max)) no_overlap(api, *a.inMax, nu, *a.max, nu, "inMaxTensor and maxTensor");
        if (lo_of(*a.inSum) != lo_of(*a.sum)) no_overlap(api, *a.inSum, nu, *a.sum, nu, "inExpSumTensor and expSumTensor");
    }
    const uint32_t row = flashv3_row_floats(k, sizeof(float)) * 4;
    const uint32_t rows = std::min(tiling.splitM, m);
    Tmp t{a.tmp, row, row * rows};
    check_tmp(api, t, {{lo_of(*a.dst), hi_of(*a.dst, n)}, {lo_of(*a.src), hi_of(*a.src, n)},
                       {lo_of(*a.mean), hi_of(*a.mean, nu)}, {lo_of(*a.sum), hi_of(*a.sum, nu)},
                       {lo_of(*a.max), hi_of(*a.max, nu)}, {update ? lo_of(*a.expMax) : 0, update ? hi_of(*a.expMax, nt) : 0}});
    const double s = double(p.alpha) / (1.0 - double(p.alpha));
    const uint32_t baseK = k / 8;
    std::vector<double> x(k);
    for (uint32_t r = 0; r < m; ++r) {
        const half* xs = a.src->raw() + uint64_t(r) * k;
        for (uint32_t j = 0; j < k; ++j) x[j] = static_cast<float>(xs[j]);
        double a1[8];
        flashv3_group_means(x, k, a1);
        double a2 = 0;
        for (double v : a1) a2 += v;
        a2 /= 8;
        double m1 = -INFINITY;
        for (uint32_t j = 0; j < k; ++j) {
            x[j] -= (a2 - a1[j / baseK]) * s;
            m1 = std::max(m1, x[j]);
        }
        double mean = a2, mx = m1, shift = m1, em = 0, insum = 0;
        if (update) {  // read the running values before anything is written (they may be the outputs)
            const double inmean = a.inMean->raw()[uint64_t(r) * 8], inmax = a.inMax->raw()[uint64_t(r) * 8];
            insum = a.inSum->raw()[uint64_t(r) * 8];
            mean = (a2 + inmean * (p.loopCnt - 1.0)) / p.loopCnt;
            const double c = (a2 - mean) * s, pp = (inmean - mean) * s;
            mx = std::max(c + m1, pp + inmax);
            shift = mx - c;
            em = std::exp(inmax - mx + pp);
        }
        double sum = 0;
        half* d = a.dst->raw() + uint64_t(r) * k;
        for (uint32_t j = 0; j < k; ++j) {
            const double e = std::exp(x[j] - shift);
            sum += e;
            d[j] = half(static_cast<float>(e));
        }
        if (update) sum += em * insum;
        for (uint32_t j = 0; j < 8; ++j) {
            a.mean->raw()[uint64_t(r) * 8 + j] = static_cast<float>(mean);
            a.sum->raw()[uint64_t(r) * 8 + j] = static_cast<float>(sum);
            a.max->raw()[uint64_t(r) * 8 + j] = static_cast<float>(mx);
        }
        if (update)
            for (uint32_t j = 0; j < 16; ++j) a.expMax->raw()[uint64_t(r) * 16 + j] = half(static_cast<float>(em));
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(half), update ? 12 : 9);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

#define KGEN_FV3_TPL template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, \
                               bool isBasicBlock = false, bool isDataFormatNZ = false,                   \
                               const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define KGEN_FV3_TYPES                                                                                    \
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,                                   \
                  "SoftmaxFlashV3 supports T = half with U = float only");                               \
    static_assert(!isDataFormatNZ, "kgen emulator: SoftmaxFlashV3 with isDataFormatNZ = true is not supported")

KGEN_FV3_TPL inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                        const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                        const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                        const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxParams& params) {
    KGEN_FV3_TYPES;
    kgen::adv::softmax_flashv3(isUpdate,
                               {&dstTensor, &meanTensor, &expSumTensor, &maxTensor, &srcTensor, &expMaxTensor,
                                &inMeanTensor, &inExpSumTensor, &inMaxTensor, &sharedTmpBuffer},
                               tiling, params);
}
KGEN_FV3_TPL inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                        const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                        const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                        const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxParams& params) {
    KGEN_FV3_TYPES;
    kgen::adv::softmax_flashv3(isUpdate,
                               {&dstTensor, &meanTensor, &expSumTensor, &maxTensor, &srcTensor, &expMaxTensor,
                                &inMeanTensor, &inExpSumTensor, &inMaxTensor, nullptr},
                               tiling, params);
}
#undef KGEN_FV3_TPL
#undef KGEN_FV3_TYPES

}  // namespace AscendC
