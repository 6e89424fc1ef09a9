// kgen AscendC CPU emulator -- the configuration types of the SortConfig forms of Sort (kernel and host).
//
// Documented rules followed (Sort and GetSortMaxMinTmpSize pages):
//  * SortType {RADIX_SORT, MERGE_SORT}; SortConfig {type = RADIX_SORT, isDescend = false,
//    hasSrcIndex = false, hasDstIndex = false}; DEFAULT_SORT_CONFIG = {RADIX_SORT, false}.
//  * These forms exist on Ascend 950 only; on dav-2201 Sort is Sort<T, isFullSort> (kgen_sim/sort.h).
//
// @api SortConfig SortType DEFAULT_SORT_CONFIG
#pragma once

namespace AscendC {

enum class SortType { RADIX_SORT, MERGE_SORT };

struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

}  // namespace AscendC
