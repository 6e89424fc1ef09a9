// kgen AscendC CPU emulator -- data movement between GM and UB, and within UB.
//
// Documented rules followed:
//  * DataCopy(dst, src, count): the UB side must be 32-byte aligned, and count * sizeof(T)
//    should be a multiple of 32 bytes. When it is not, the hardware moves only the whole
//    32-byte blocks: the length is rounded down and the tail is silently not copied. The
//    emulator copies what the hardware copies and warns (`datacopy-rounded`) with the
//    number of elements lost; DataCopyPad is the API for unaligned lengths.
//  * DataCopy(dst, src, DataCopyParams{blockCount, blockLen, srcStride, dstStride}): blockCount
//    blocks of blockLen 32-byte units each; the strides are the gaps between consecutive
//    blocks, in 32-byte units, on each side.
//  * GM->UB runs on MTE2, UB->GM on MTE3; UB->UB on the vector pipe (assumption).
//  * With SetAtomicAdd/Max/Min active, UB->GM writes combine with GM atomically.
//
// @api DataCopy DataCopyParams
#pragma once
#include <cstring>

#include "kgen_sim/sync.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

}  // namespace AscendC

namespace kgen {

/// Local -> local copies that involve a cube-unit memory (L1 -> bias table, ...): defined in
/// kgen_sim/cube/local_copy.h, which states the paths and units of dav-2201.
template <typename T>
void cube_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::DataCopyParams& p);
template <typename T>
void cube_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count);

inline std::mutex& atomic_mutex() { static std::mutex m; return m; }

/// Write n elements to GM, combining with GM when an atomic mode is set.
template <typename T>
inline void gm_store(T* dst, const T* src, uint64_t n) {
    int mode = core().atomic_mode;
    if (mode == 0) {
        std::memcpy(static_cast<void*>(dst), src, n * sizeof(T));
        return;
    }
    std::lock_guard<std::mutex> g(atomic_mutex());
    for (uint64_t i = 0; i < n; ++i) {
        using C = compute_t<T>;
        C a = static_cast<C>(dst[i]), b = static_cast<C>(src[i]);
        C r = mode == 1 ? static_cast<C>(a + b) : mode == 2 ? (a > b ? a : b) : (a < b ? a : b);
        dst[i] = static_cast<T>(r);
    }
}

/// Elements of a count-form DataCopy that the hardware really moves (whole 32-byte blocks).
template <typename T>
inline uint32_t copied_elements(const char* api, uint32_t count) {
    uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % ONE_BLK == 0) return count;
    uint32_t kept = static_cast<uint32_t>(bytes / ONE_BLK * ONE_BLK / sizeof(T));
    warn("datacopy-rounded", "%s of %u elements (%llu bytes) is not a multiple of 32 bytes: the hardware copies %u elements and "
         "silently drops the last %u; use DataCopyPad for unaligned lengths", api, count, (unsigned long long)bytes, kept,
         count - kept);
    return kept;
}

}  // namespace kgen

namespace AscendC {

/// GM -> UB, contiguous.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count) {
    dst.check_aligned("DataCopy");
    uint32_t n = kgen::copied_elements<T>("DataCopy", count);
    dst.check(0, n, "DataCopy (UB destination)");
    src.check_read(0, n, "DataCopy (GM source)");
    std::memcpy(static_cast<void*>(dst.raw()), src.raw(), uint64_t(n) * sizeof(T));
    kgen::trace("DataCopy", kgen::Pipe::MTE2, uint64_t(n) * sizeof(T), 1, 0, 0, sizeof(T));
}

/// UB -> GM, contiguous.
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    src.check_aligned("DataCopy");
    uint32_t n = kgen::copied_elements<T>("DataCopy", count);
    src.check(0, n, "DataCopy (UB source)");
    dst.check(0, n, "DataCopy (GM destination)");
    kgen::gm_store(dst.raw(), src.raw(), n);
    kgen::trace("DataCopy", kgen::Pipe::MTE3, uint64_t(n) * sizeof(T), 1, 0, 0, sizeof(T));
}

/// UB -> UB, contiguous.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
    if (dst.mem() != kgen::Mem::UB || src.mem() != kgen::Mem::UB) return kgen::cube_local_copy(dst, src, count);
    dst.check_aligned("DataCopy");
    src.check_aligned("DataCopy");
    uint32_t n = kgen::copied_elements<T>("DataCopy", count);
    dst.check(0, n, "DataCopy (UB destination)");
    src.check(0, n, "DataCopy (UB source)");
    std::memmove(static_cast<void*>(dst.raw()), src.raw(), uint64_t(n) * sizeof(T));
    kgen::trace("DataCopy", kgen::Pipe::V, uint64_t(n) * sizeof(T), static_cast<uint32_t>((uint64_t(n) * sizeof(T) + kgen::ONE_REP - 1) / kgen::ONE_REP), 0, 0, sizeof(T));
}

}  // namespace AscendC

namespace kgen {

/// Strided block copy shared by the three DataCopyParams directions. Units are 32 bytes.
template <typename T, typename Dst, typename Src, typename Store>
inline void copy_blocks(const char* api, const Dst& dst, const Src& src, const AscendC::DataCopyParams& p, Pipe pipe, Store store) {
    constexpr uint64_t epb = ONE_BLK / sizeof(T);
    uint64_t len = uint64_t(p.blockLen) * epb;
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint64_t s = uint64_t(b) * (p.blockLen + p.srcStride) * epb;
        uint64_t d = uint64_t(b) * (p.blockLen + p.dstStride) * epb;
        src.check_read(s, len, api);
        dst.check(d, len, api);
        store(dst.raw() + d, src.raw() + s, len);
    }
    trace(api, pipe, uint64_t(p.blockCount) * p.blockLen * ONE_BLK, p.blockCount, 0, 0, sizeof(T));
}

}  // namespace kgen

namespace AscendC {

/// GM -> UB, strided blocks.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
    dst.check_aligned("DataCopy");
    kgen::copy_blocks<T>("DataCopy", dst, src, p, kgen::Pipe::MTE2,
                         [](T* d, const T* s, uint64_t n) { std::memcpy(static_cast<void*>(d), s, n * sizeof(T)); });
}
/// UB -> GM, strided blocks.
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    src.check_aligned("DataCopy");
    kgen::copy_blocks<T>("DataCopy", dst, src, p, kgen::Pipe::MTE3, [](T* d, const T* s, uint64_t n) { kgen::gm_store(d, s, n); });
}
/// UB -> UB, strided blocks.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    if (dst.mem() != kgen::Mem::UB || src.mem() != kgen::Mem::UB) return kgen::cube_local_copy(dst, src, p);
    dst.check_aligned("DataCopy");
    src.check_aligned("DataCopy");
    kgen::copy_blocks<T>("DataCopy", dst, src, p, kgen::Pipe::V,
                         [](T* d, const T* s, uint64_t n) { std::memmove(static_cast<void*>(d), s, n * sizeof(T)); });
}

}  // namespace AscendC

#include "kgen_sim/data_copy_slice.h"   // DataCopy with SliceInfo (its own header)
