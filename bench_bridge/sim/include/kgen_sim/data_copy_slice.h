// kgen AscendC CPU emulator -- DataCopy of a multi-dimensional slice between GM and UB (SliceInfo).
//
// Documented rules followed (dav-2201 page "DataCopy (GM and UB slice copy)"):
//  * DataCopy(dst, src, dstSliceInfo[], srcSliceInfo[], dimValue = 1), GM -> UB and UB -> GM. Each side is
//    an array of dimValue (1..8) SliceInfo{startIndex, endIndex, stride, burstLen, shapeValue}, dimension 0
//    the innermost. In dimension 0 the slice is segments of burstLen 32-byte blocks (burstLen * 32 /
//    sizeof(T) elements) from startIndex, with `stride` elements skipped between segments, up to endIndex
//    (inclusive); in higher dimensions the segments are single indices (burstLen must be 1) `stride`
//    apart. shapeValue is the dimension's full length: element (i0, i1, ...) is at i0 + shape0 * (i1 +
//    shape1 * ...). The selected source elements, in order, are written to the selected destination
//    positions, in order.
//  * endIndex - startIndex + 1 = (N - 1) * stride + N * segment for a whole N, startIndex < endIndex <=
//    shapeValue, both sides select as many elements and have equal burstLen per dimension: otherwise
//    `datacopy-slice` (the library computes another copy than the program names).
//  * The UB side starts 32-byte aligned (`ub-misaligned`); every element must lie inside its tensor /
//    allocation (`ub-out-of-bounds`, the GM access policy).
//
// @api SliceInfo K_MAX_DIM
#pragma once
#include <cstdint>
#include <vector>

#include "kgen_sim/data_copy.h"

namespace AscendC {

/// The most dimensions a slice copy (and a ShapeInfo) has.
inline constexpr int32_t K_MAX_DIM = 8;

struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn, const uint32_t burstLenIn,
              const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn), shapeValue(shapeValueIn) {}
    uint32_t startIndex = 0;
    uint32_t endIndex = 31;
    uint32_t stride = 0;
    uint32_t burstLen = 1;
    uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace kgen {
namespace slice {

/// Element offsets (in the flat tensor) a slice selects, in order.
template <typename T>
inline std::vector<uint64_t> offsets(const AscendC::SliceInfo* s, uint32_t dims, const char* side) {
    std::vector<uint64_t> out{0};
    uint64_t pitch = 1;
    std::vector<std::vector<uint64_t>> per(dims);
    for (uint32_t d = 0; d < dims; ++d) {
        const AscendC::SliceInfo& x = s[d];
        const uint64_t seg = d == 0 ? uint64_t(x.burstLen) * ONE_BLK / sizeof(T) : x.burstLen;
        if (d > 0 && x.burstLen != 1)
            fail("datacopy-slice", "DataCopy (slice): %s dimension %u has burstLen %u; above dimension 0 it must be 1", side, d,
                 x.burstLen);
        if (!(x.startIndex < x.endIndex && x.endIndex <= x.shapeValue) || seg == 0)
            fail("datacopy-slice", "DataCopy (slice): %s dimension %u needs startIndex < endIndex <= shapeValue and burstLen > 0 "
                 "(got %u, %u, %u, burstLen %u)", side, d, x.startIndex, x.endIndex, x.shapeValue, x.burstLen);
        const uint64_t len = uint64_t(x.endIndex) - x.startIndex + 1;
        if ((len + x.stride) % (seg + x.stride))
            fail("datacopy-slice", "DataCopy (slice): %s dimension %u: endIndex - startIndex + 1 = %llu is not (N - 1) * stride + "
                 "N * %llu (stride %u) for a whole N", side, d, (unsigned long long)len, (unsigned long long)seg, x.stride);
        for (uint64_t i = x.startIndex; i <= x.endIndex; i += seg + x.stride)
            for (uint64_t k = 0; k < seg && i + k <= x.endIndex; ++k) per[d].push_back((i + k) * pitch);
        pitch *= x.shapeValue;
    }
    for (int d = static_cast<int>(dims) - 1; d >= 0; --d) {   // outermost first: the order of the elements
        std::vector<uint64_t> next;
        next.reserve(out.size() * per[d].size());
        for (uint64_t o : out)
            for (uint64_t v : per[d]) next.push_back(o + v);
        out.swap(next);
    }
    return out;
}

template <typename T>
inline void plan(const AscendC::SliceInfo dstInfo[], const AscendC::SliceInfo srcInfo[], uint32_t dims,
                 std::vector<uint64_t>& d, std::vector<uint64_t>& s) {
    if (dims == 0 || dims > 8) fail("datacopy-slice", "DataCopy (slice): dimValue %u must be in 1..8", dims);
    for (uint32_t i = 0; i < dims; ++i)
        if (dstInfo[i].burstLen != srcInfo[i].burstLen)
            fail("datacopy-slice", "DataCopy (slice): dimension %u has burstLen %u on the destination and %u on the source; they "
                 "must be equal", i, dstInfo[i].burstLen, srcInfo[i].burstLen);
    d = offsets<T>(dstInfo, dims, "the destination");
    s = offsets<T>(srcInfo, dims, "the source");
    if (d.size() != s.size())
        fail("datacopy-slice", "DataCopy (slice): the source slice has %zu elements, the destination slice %zu", s.size(), d.size());
}

}  // namespace slice
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
    std::vector<uint64_t> d, s;
    kgen::slice::plan<T>(dstSliceInfo, srcSliceInfo, dimValue, d, s);
    dst.check_aligned("DataCopy (slice)");
    for (size_t i = 0; i < d.size(); ++i) {
        dst.check(d[i], 1, "DataCopy (slice, UB destination)");
        src.check_read(s[i], 1, "DataCopy (slice, GM source)");
        dst.raw()[d[i]] = src.raw()[s[i]];
    }
    kgen::trace("DataCopy", kgen::Pipe::MTE2, d.size() * sizeof(T), 1, 0, 0, sizeof(T));
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
    std::vector<uint64_t> d, s;
    kgen::slice::plan<T>(dstSliceInfo, srcSliceInfo, dimValue, d, s);
    src.check_aligned("DataCopy (slice)");
    for (size_t i = 0; i < d.size(); ++i) {
        src.check(s[i], 1, "DataCopy (slice, UB source)");
        dst.check(d[i], 1, "DataCopy (slice, GM destination)");
        kgen::gm_store(dst.raw() + d[i], src.raw() + s[i], 1);
    }
    kgen::trace("DataCopy", kgen::Pipe::MTE3, d.size() * sizeof(T), 1, 0, 0, sizeof(T));
}

}  // namespace AscendC
