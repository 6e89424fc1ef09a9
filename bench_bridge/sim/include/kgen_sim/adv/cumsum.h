// kgen AscendC CPU emulator -- CumSum (cumulative sum of a 2-D [outter, inner] tile, dav-2201).
//
// Documented rules followed (CumSum page):
//  * CumSum<T, config = defaultCumSumConfig>(dst, lastRow, src[, sharedTmpBuffer], CumSumInfo{outter,
//    inner}); T half or float; LocalTensors in VECIN/VECCALC/VECOUT.
//  * First axis (config.isLastAxis = false): the first row stays, each later row adds the running sum of
//    the rows above: dst[i][j] = src[0][j] + ... + src[i][j]. Last axis (true): the same along each row:
//    dst[i][j] = src[i][0] + ... + src[i][j].
//  * config.outputLastRow: lastRow receives the last row of dst (inner elements).
//  * inner * sizeof(T) is a multiple of 32 bytes; outter * inner fits src and dst; with outputLastRow,
//    inner fits lastRow (`cumsum-shape` error otherwise).
//  * Accumulation in float (half is widened, the sums rounded to half once at the end). LINEBYLINE adds
//    one row/column after the other; SKLANSKY builds the prefix sums in log2 rounds (in round r the
//    second half of every block of 2^r lines adds the last line of its first half), so float results can
//    differ from LINEBYLINE in the last bits.
//  * Temporary buffer: see adv/cumsum_rules.h (`adv-tmp-too-small` / `adv-tmp-no-room`); it must not
//    overlap src or dst. dst must not overlap src unless config.isReuseSource.
//
// @api CumSum CumSumConfig CumSumInfo CumSumAlgorithm defaultCumSumConfig
#pragma once
#include <cstdint>
#include <vector>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/cumsum_rules.h"

namespace kgen {
namespace adv {

/// Prefix sums over `n` lines of `len` floats each (line l at l * stride_l, element e at e * stride_e).
inline void prefix_lines(std::vector<float>& v, uint32_t n, uint32_t len, uint64_t stride_l, uint64_t stride_e,
                         bool sklansky) {
    if (!sklansky) {
        for (uint32_t l = 1; l < n; ++l)
            for (uint32_t e = 0; e < len; ++e) v[l * stride_l + e * stride_e] += v[(l - 1) * stride_l + e * stride_e];
        return;
    }
    for (uint32_t half = 1; half < n; half *= 2) {
        for (uint32_t base = 0; base < n; base += 2 * half) {
            uint32_t src = base + half - 1;
            if (src >= n) break;
            for (uint32_t l = base + half; l < base + 2 * half && l < n; ++l)
                for (uint32_t e = 0; e < len; ++e) v[l * stride_l + e * stride_e] += v[src * stride_l + e * stride_e];
        }
    }
}

template <class T, const AscendC::CumSumConfig& config>
inline void cumsum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
                   const LocalTensor<uint8_t>* tmpBuf, const AscendC::CumSumInfo& info) {
    static_assert(hf_v<T>, "CumSum supports half and float on dav-2201");
    const char* api = "CumSum";
    const uint32_t m = info.outter, n = info.inner;
    const uint64_t total = uint64_t(m) * n;
    if (m == 0 || n == 0 || (uint64_t(n) * sizeof(T)) % 32)
        fail("cumsum-shape", "%s: CumSumInfo{outter %u, inner %u}: both must be positive and inner * sizeof(T) a multiple of "
             "32 bytes", api, m, n);
    operand(api, src, total);
    operand(api, dst, total);
    if (config.outputLastRow) operand(api, lastRow, n);
    if (!config.isReuseSource) no_overlap(api, dst, total, src, total, "dst and src");
    Tmp t{tmpBuf, cumsum_tmp_bytes(m, n, sizeof(T), config.isLastAxis), 0};
    t.use_bytes = t.min_bytes;
    check_tmp(api, t, {{lo_of(src), hi_of(src, total)}, {lo_of(dst), hi_of(dst, total)}});
    std::vector<float> v(total);
    const T* s = src.raw();
    for (uint64_t i = 0; i < total; ++i) v[i] = static_cast<float>(s[i]);
    const bool skl = config.algorithm == AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY;
    if (config.isLastAxis) prefix_lines(v, n, m, 1, n, skl);  // lines are columns, elements run down the rows
    else prefix_lines(v, m, n, n, 1, skl);
    T* d = dst.raw();
    for (uint64_t i = 0; i < total; ++i) d[i] = static_cast<T>(v[i]);
    if (config.outputLastRow) {
        T* lr = lastRow.raw();
        for (uint32_t j = 0; j < n; ++j) lr[j] = d[uint64_t(m - 1) * n + j];
    }
    clobber_tmp(t);
    trace_call(api, total * sizeof(T), 2);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) {
    kgen::adv::cumsum<T, config>(dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const CumSumInfo& cumSumInfo) {
    kgen::adv::cumsum<T, config>(dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo);
}

}  // namespace AscendC
