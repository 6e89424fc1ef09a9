// kgen AscendC CPU emulator -- LogSoftMax (ND format) and its kernel-side tiling struct.
//
// Documented rules followed (dav-2201 LogSoftMax page):
//  * The input is seen as [M, K]; per row: max = max_k x, e = exp(x - max), sum = sum_k e and
//    dst = log10(e / sum). The logarithm is base 10 (the documented formula and its worked
//    example both use log10, not the natural log of torch.log_softmax).
//  * LogSoftMax<T, isReuseSource = false, isDataFormatNZ = false>(dst, sum, max, src,
//    sharedTmpBuffer, LogSoftMaxTiling tiling, SoftMaxShapeInfo shapeInfo = {}): T is half or
//    float; sum and max are T-typed, one 32-byte block per row holding the row's value.
//    There is no form without sharedTmpBuffer.
//  * srcK * sizeof(T) must be a multiple of 32 (`softmax-shape`); padding columns (oriSrcK < srcK)
//    are left out of the reductions and get unspecified values in dst.
//  * The source and destination must not overlap (unlike SoftMax): `operand-overlap`.
//  * sharedTmpBuffer needs at least (32 / sizeof(T) + srcK + 64) * 4 bytes (GetLogSoftMaxMinTmpSize),
//    else `adv-tmp-too-small`; it must not overlap an operand.
//  * LogSoftMaxTiling has SoftMaxTiling's 16 uint32_t fields (filled by LogSoftMaxTilingFunc).
//  * isDataFormatNZ = true is not emulated: compile-time error.
//
// Precision: the emulator reduces in double and rounds once to T. The NPU computes in float
// with its own Exp/Ln instructions (half inputs cast to float first): its results differ from
// the emulator's by a few float ulp, and the rounding of half results can differ by one half ulp.
//
// @api LogSoftMax LogSoftMaxTiling
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/softmax.h"
#include "kgen_sim/adv/softmax_ext_rules.h"
#include "kgen_sim/adv/softmax_types.h"


namespace kgen {
namespace adv {

/// The SoftMaxTiling view of a LogSoftMaxTiling (same fields, same order).
inline ::SoftMaxTiling as_softmax_tiling(const ::LogSoftMaxTiling& t) {
    ::SoftMaxTiling s;
    static_assert(sizeof(s) == sizeof(t), "LogSoftMaxTiling and SoftMaxTiling share their layout");
    std::memcpy(&s, &t, sizeof(s));
    return s;
}

template <class T>
inline void log_softmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& sum,
                        const AscendC::LocalTensor<T>& max, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>& tmp, const ::LogSoftMaxTiling& tiling,
                        const AscendC::SoftMaxShapeInfo& info) {
    static_assert(hf_v<T>, "LogSoftMax supports half and float only on dav-2201");
    const char* api = "LogSoftMax";
    SmShape s = softmax_shape(api, as_softmax_tiling(tiling), info, sizeof(T));
    const uint64_t n = uint64_t(s.m) * s.k;
    const uint32_t blk = 32 / sizeof(T);
    const uint64_t nb = uint64_t(s.m) * blk;
    operand(api, dst, n);
    operand(api, src, n);
    operand(api, sum, nb);
    operand(api, max, nb);
    no_overlap(api, dst, n, src, n, "the source and destination tensors");
    no_overlap(api, sum, nb, dst, n, "sum and dst");
    no_overlap(api, max, nb, dst, n, "max and dst");
    Tmp t{&tmp, softmax_row_tmp_bytes(s.k, sizeof(T)), softmax_row_tmp_bytes(s.k, sizeof(T)) * s.m};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, n)}, {lo_of(src), hi_of(src, n)}, {lo_of(sum), hi_of(sum, nb)},
                       {lo_of(max), hi_of(max, nb)}});
    std::vector<double> row(s.k);
    for (uint32_t m = 0; m < s.m; ++m) {
        const T* x = src.raw() + uint64_t(m) * s.k;
        for (uint32_t k = 0; k < s.k; ++k) row[k] = static_cast<float>(x[k]);
        double mx = -INFINITY, sm = 0;
        for (uint32_t k = 0; k < s.ok; ++k) mx = std::max(mx, row[k]);
        for (uint32_t k = 0; k < s.ok; ++k) sm += std::exp(row[k] - mx);
        T* d = dst.raw() + uint64_t(m) * s.k;
        for (uint32_t k = 0; k < s.k; ++k) d[k] = T(static_cast<float>(std::log10(std::exp(row[k] - mx) / sm)));
        for (uint32_t j = 0; j < blk; ++j) {
            sum.raw()[uint64_t(m) * blk + j] = T(static_cast<float>(sm));
            max.raw()[uint64_t(m) * blk + j] = T(static_cast<float>(mx));
        }
    }
    clobber_tmp(t);
    trace_call(api, n * sizeof(T), 8);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                       const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "kgen emulator: LogSoftMax with isDataFormatNZ = true (NZ layout) is not emulated");
    kgen::adv::log_softmax<T>(dst, sum, max, src, sharedTmpBuffer, tiling, softmaxShapeInfo);
}

}  // namespace AscendC
