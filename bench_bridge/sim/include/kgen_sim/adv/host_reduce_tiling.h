// kgen host-side emulation -- temporary sizes of the high-level reductions: GetSumMaxMinTmpSize,
// GetMeanMaxMinTmpSize, GetMeanTmpBufferFactorSize, GetReduceSum/Mean/Max/MinMaxMinTmpSize.
//
// Documented rules followed (dav-2201; the formulas are in adv/reduce_rules.h):
//  * GetSumMaxMinTmpSize(n, typeSize, isReuseSource, max, min): max = min = sum_tmp_bytes(n, typeSize).
//  * GetMeanMaxMinTmpSize(n, srcTypeSize, accTypeSize, isReuseSource, max, min): max = min =
//    mean_tmp_bytes; (src, acc) must be (2, 2), (4, 4) or (2, 4).
//  * GetMeanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer): (1, 0).
//  * Get<Name>MaxMinTmpSize(srcShape [first, last], dataType, ReducePattern AR/RA, isSrcInnerPad (must be
//    true), isReuseSource (true: 0 bytes), max, min): reduce_pattern_tmp; ReduceSum/ReduceMean take
//    DT_FLOAT only, ReduceMax/ReduceMin DT_FLOAT or DT_FLOAT16.
// Emulator: a violated rule is a located warning (`reduce-tiling`), never a stop: CANN's helpers log such
// arguments and go on. The pattern helpers compute their sizes anyway, as CANN's do (only an unsupported data
// type returns early, outputs untouched); the others leave their outputs alone.
//
// @api GetSumMaxMinTmpSize GetMeanMaxMinTmpSize GetMeanTmpBufferFactorSize GetReduceSumMaxMinTmpSize
// @api GetReduceMeanMaxMinTmpSize GetReduceMaxMaxMinTmpSize GetReduceMinMaxMinTmpSize TensorDataType
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/norm_types.h"
#include "kgen_sim/adv/reduce_rules.h"

namespace AscendC {
using TensorDataType = ge::DataType;

namespace kgen_host {
inline bool reduce_bad(const char* api, const char* what) {
    ::kgen::host::host_warn("reduce-tiling", "%s: %s", api, what);
    return true;
}
inline void reduce_pattern_sizes(const char* api, int kind, const ge::Shape& s, TensorDataType dt, ReducePattern p,
                                 bool pad, bool reuse, uint32_t& maxValue, uint32_t& minValue) {
    const bool fOnly = kind == 0;
    if (fOnly ? dt != ge::DT_FLOAT : (dt != ge::DT_FLOAT && dt != ge::DT_FLOAT16)) {
        reduce_bad(api, fOnly ? "only DT_FLOAT is supported on dav-2201" : "only DT_FLOAT and DT_FLOAT16 are supported");
        return;
    }
    // CANN's helper logs the following and computes on (only the data type check returns early): warnings
    // here, and the sizes it computes (a missing dimension counts as 1; a pattern other than AR is sized as RA)
    if (s.GetDimNum() != 2) reduce_bad(api, "srcShape must have 2 dimensions");
    if (!pad) reduce_bad(api, "isSrcInnerPad must be true on dav-2201");
    if (p != ReducePattern::AR && p != ReducePattern::RA) reduce_bad(api, "only the AR and RA patterns are supported");
    const uint32_t first = s.GetDimNum() > 0 ? static_cast<uint32_t>(s.GetDim(0)) : 1;
    const uint32_t last = s.GetDimNum() > 1 ? static_cast<uint32_t>(s.GetDim(1)) : 1;
    if (!first || !last) reduce_bad(api, "both axes must be greater than 0");
    if (reuse) { maxValue = minValue = 0; return; }
    const uint32_t ts = dt == ge::DT_FLOAT ? 4 : 2;
    const uint32_t v = ::kgen::adv::reduce_pattern_tmp(kind, p == ReducePattern::AR, first, last, ts);
    maxValue = minValue = v;
}
}  // namespace kgen_host

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize) {
    (void)isReuseSource;
    if (typeSize != 2 && typeSize != 4) { kgen_host::reduce_bad("GetSumMaxMinTmpSize", "typeSize must be 2 or 4"); return; }
    if (n == 0) { kgen_host::reduce_bad("GetSumMaxMinTmpSize", "n must be greater than 0"); return; }
    maxSize = minSize = ::kgen::adv::sum_tmp_bytes(n, typeSize);
}
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    const bool ok = (srcTypeSize == 2 && accTypeSize == 2) || (srcTypeSize == 4 && accTypeSize == 4) ||
                    (srcTypeSize == 2 && accTypeSize == 4);
    if (!ok) { kgen_host::reduce_bad("GetMeanMaxMinTmpSize", "(srcTypeSize, accTypeSize) must be (2, 2), (4, 4) or (2, 4)"); return; }
    if (n == 0) { kgen_host::reduce_bad("GetMeanMaxMinTmpSize", "n must be greater than 0"); return; }
    maxSize = minSize = ::kgen::adv::mean_tmp_bytes(n, srcTypeSize, accTypeSize);
}
inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    (void)typeSize;
    maxLiveNodeCount = 1;
    extraBuffer = 0;
}

#define KGEN_REDUCE_SIZES(NAME, KIND)                                                                                  \
    inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const TensorDataType dataType, ReducePattern pattern, \
                                         bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) { \
        kgen_host::reduce_pattern_sizes("Get" #NAME "MaxMinTmpSize", KIND, srcShape, dataType, pattern, isSrcInnerPad,  \
                                        isReuseSource, maxValue, minValue);                                            \
    }
KGEN_REDUCE_SIZES(ReduceSum, 0)
KGEN_REDUCE_SIZES(ReduceMean, 0)
KGEN_REDUCE_SIZES(ReduceMax, 1)
KGEN_REDUCE_SIZES(ReduceMin, 1)
#undef KGEN_REDUCE_SIZES

}  // namespace AscendC
