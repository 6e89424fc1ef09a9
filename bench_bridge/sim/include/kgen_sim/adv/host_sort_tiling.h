// kgen host-side emulation -- the temporary sizes of the high-level sort APIs: GetSortTmpSize,
// GetConcatTmpSize and (Ascend 950 only) GetSortMaxMinTmpSize.
//
// Documented rules followed (GetSortTmpSize / GetConcatTmpSize / GetSortMaxMinTmpSize pages, dav-2201):
//  * GetSortTmpSize(platform, elemCount, dataTypeSize): bytes of the tmp tensor Sort<T, isFullSort>
//    needs: one 8-byte (score, index) structure per element, elemCount * 8 (that is elemCount * 2
//    floats or elemCount * 4 halves).
//  * GetConcatTmpSize(platform, elemCount, dataTypeSize): 0 -- Concat needs no rearranging here.
//  * elemCount > 0, dataTypeSize 2 or 4, elemCount * dataTypeSize below the UB size; a violation is
//    reported on stderr (`sort-tiling`) and the size is still returned, as CANN logs and continues.
//  * GetSortMaxMinTmpSize(shape, valueType, indexType, isReuseSource, SortConfig, max, min) serves the
//    SortConfig forms of Sort (Ascend 950). On dav-2201 CANN rejects the call and leaves max/min
//    unset; kgen warns (`api-unsupported`) on stderr and sets both to 0 (so a kernel that skips a
//    zero-sized buffer keeps working, as the official sort example does).
//
// @api GetSortTmpSize GetConcatTmpSize GetSortMaxMinTmpSize
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_math_tiling.h"
#include "kgen_sim/adv/sort_types.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
namespace kgen_host {
inline void sort_args_check(const char* fn, const platform_ascendc::PlatformAscendC& plat, uint32_t n, uint32_t ts) {
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const char* why = n == 0 ? "elemCount must be greater than 0"
                      : (ts != 2 && ts != 4) ? "dataTypeSize must be 2 (half) or 4 (float)"
                      : uint64_t(n) * ts >= ub ? "elemCount * dataTypeSize must be below the Unified Buffer size"
                                               : nullptr;
    if (why) ::kgen::host::host_warn("sort-tiling", "%s: %s (elemCount %u, dataTypeSize %u)", fn, why, n, ts);
}
}  // namespace kgen_host

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
    kgen_host::sort_args_check("GetSortTmpSize", ascendcPlatform, elemCount, dataTypeSize);
    return elemCount * 8u;  // one (score, index) structure per element
}

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
    kgen_host::sort_args_check("GetConcatTmpSize", ascendcPlatform, elemCount, dataTypeSize);
    return 0;
}

inline void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType, bool isReuseSource,
                                 const SortConfig& config, uint32_t& maxValue, uint32_t& minValue) {
    (void)srcShape, (void)valueType, (void)indexType, (void)isReuseSource, (void)config;
    std::fprintf(stderr, "kgen: warning: GetSortMaxMinTmpSize serves the SortConfig forms of Sort (Ascend 950 only); on "
                 "dav-2201 Sort<T, isFullSort> needs GetSortTmpSize. maxValue/minValue set to 0 [api-unsupported]\n");
    maxValue = 0;
    minValue = 0;
}

}  // namespace AscendC
