// kgen AscendC CPU emulator -- DataCacheCleanAndInvalid: keep the scalar unit's data cache and GM coherent.
//
// Documented behaviour followed: scalar accesses to GM (GetValue/SetValue, raw pointers) go through a
// per-core data cache; DMA (DataCopy) does not. DataCacheCleanAndInvalid<T, CacheLine, DcciDst>(tensor)
// writes back and invalidates the cache line holding the tensor's address (SINGLE_CACHE_LINE) or the
// whole data cache (ENTIRE_DATA_CACHE), so scalar writes become visible to DMA and other cores and
// scalar reads see their writes. CACHELINE_ALL acts as CACHELINE_OUT; CACHELINE_UB and
// CACHELINE_ATOMIC are reserved.
// Emulator model: GM is host memory shared by all blocks, so scalar accesses are always coherent and
// the call changes nothing (a kernel missing the call is not diagnosed).
//
// @api DataCacheCleanAndInvalid CacheLine DcciDst SINGLE_CACHE_LINE ENTIRE_DATA_CACHE CACHELINE_ALL CACHELINE_UB CACHELINE_OUT CACHELINE_ATOMIC
#pragma once
#include <cstdint>

#include "kgen_sim/tensor.h"

namespace AscendC {

enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}

template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

}  // namespace AscendC
