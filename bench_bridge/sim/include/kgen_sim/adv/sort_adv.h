// kgen AscendC CPU emulator -- the SortConfig forms of the high-level Sort.
//
// Documented rules followed (Sort page): Sort<T, [U,] isReuseSource, config>(dst, [dstIndex,] src,
// [srcIndex,] [sharedTmpBuffer,] calCount) -- radix or merge sort with a SortConfig -- is supported on
// Ascend 950 only. On dav-2201 (Atlas A2) the high-level Sort is Sort<T, isFullSort>(dst, concat, index,
// tmp, repeatTime) with Concat / Extract / GetSortLen (kgen_sim/sort.h). The forms below compile so a
// kernel written for Ascend 950 gets a located `api-unsupported` error naming the dav-2201 form.
//
// (No public API of its own: the Sort overloads are listed with Sort; SortConfig in sort_types.h.)
#pragma once
#include <cstdint>

#include "kgen_sim/adv/sort_types.h"
#include "kgen_sim/sort.h"

namespace kgen {
namespace adv {
[[noreturn]] inline void sort_config_unsupported() {
    fail("api-unsupported",
         "Sort with a SortConfig (calCount form) is Ascend 950 only; on dav-2201 use Sort<T, isFullSort>(dst, concat, "
         "index, tmp, calCount / 32) after Concat, then Extract (T half or float, calCount a multiple of 32)");
}
}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>&, const LocalTensor<T>&, const uint32_t) { kgen::adv::sort_config_unsupported(); }

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>&, LocalTensor<uint32_t>&, const LocalTensor<T>&, const uint32_t) {
    kgen::adv::sort_config_unsupported();
}

template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<T>&, const LocalTensor<U>&, const uint32_t) {
    kgen::adv::sort_config_unsupported();
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t) {
    kgen::adv::sort_config_unsupported();
}

template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>&, LocalTensor<uint32_t>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&, const uint32_t) {
    kgen::adv::sort_config_unsupported();
}

template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>&, LocalTensor<U>&, const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<uint8_t>&,
                 const uint32_t) {
    kgen::adv::sort_config_unsupported();
}

}  // namespace AscendC
