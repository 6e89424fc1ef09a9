// kgen AscendC CPU emulator -- GM -> L1 with on-the-fly ND -> NZ conversion (DataCopy + Nd2NzParams).
//
// Documented rule followed (AscendC "DataCopy with format conversion, ND2NZ", and the
// copy_gm_to_cbuf_multi_nd2nz intrinsic's loop description), for element type T, C0 = 32 B / sizeof(T):
//   for i < ndNum:                          (matrices)
//     src_i = srcNdMatrixStride * i         (elements)
//     dst_i = dstNzMatrixStride * i         (elements)
//     for j < nValue:                       (rows of the ND matrix)
//       src_j = src_i + j * srcDValue       (elements: the row pitch in GM)
//       dst_j = dst_i + j * dstNzNStride * C0
//       for b < ceil(dValue / C0):          (32-byte pieces of the row)
//         dst[dst_j + b * dstNzC0Stride * C0 .. + C0) = src[src_j + b * C0 .. + C0)
// The last piece of a row whose dValue is not a multiple of C0 is zero-filled in L1 up to 32 bytes.
// dstNzC0Stride and dstNzNStride count 32-byte blocks, the other strides count elements.
// Destinations: A1/B1/C1 (L1) and, as documented for dav-2201, VECIN (UB). Runs on MTE2.
// int4b_t data moves as bytes, two elements each (dValue, srcDValue and the strides count bytes, as the
// official load_data_l12l0 example sets them: dValue = k >> 1).
// Value ranges checked (`nd2nz-param`): srcDValue >= dValue when nValue > 1, dstNzC0Stride >= 1 and
// dstNzNStride >= 1 when used.
//
// @api Nd2NzParams
#pragma once
#include <cstring>

#include "kgen_sim/cube/layout.h"
#include "kgen_sim/data_copy.h"

namespace AscendC {

struct Nd2NzParams {
    Nd2NzParams() = default;
    Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn, uint16_t srcDValueIn,
                uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn, uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn), srcDValue(srcDValueIn),
          dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn), dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

/// GM (ND) -> L1 or VECIN (NZ).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
    using namespace kgen;
    if constexpr (is_int4_v<T>) {
        // int4b_t moves as bytes (two elements each): dValue, srcDValue and the strides count bytes
        GlobalTensor<int8_t> bytes;
        if (src.bounded()) bytes.SetGlobalBuffer(reinterpret_cast<int8_t*>(src.raw()), (src.GetSize() + 1) / 2);
        else bytes.SetGlobalBuffer(reinterpret_cast<int8_t*>(src.raw()));
        DataCopy(dst.template ReinterpretCast<int8_t>(), bytes, p);
        return;
    }
    constexpr uint32_t C0 = cube::c0<T>();
    const char* api = "DataCopy(Nd2NzParams)";
    cube::require_mem(dst, api, "the destination", {Mem::L1, Mem::UB}, "A1/B1/C1 (L1) or VECIN (UB)");
    cube::require_align(dst, api, "the destination", ONE_BLK);
    if (p.nValue > 1 && p.srcDValue < p.dValue)
        fail("nd2nz-param", "%s: srcDValue (%u, the GM row pitch in elements) is smaller than dValue (%u): rows would overlap", api,
             p.srcDValue, p.dValue);
    if (p.nValue > 0 && p.dValue > 0 && (p.dstNzNStride == 0 || (p.dValue > C0 && p.dstNzC0Stride == 0)))
        fail("nd2nz-param", "%s: dstNzNStride (%u) and dstNzC0Stride (%u) count 32-byte blocks and must be at least 1", api,
             p.dstNzNStride, p.dstNzC0Stride);
    const uint32_t pieces = cube::ceil_div(p.dValue, C0);
    uint64_t rows = 0;
    for (uint32_t i = 0; i < p.ndNum; ++i) {
        const uint64_t src_i = uint64_t(p.srcNdMatrixStride) * i, dst_i = uint64_t(p.dstNzMatrixStride) * i;
        for (uint32_t j = 0; j < p.nValue; ++j) {
            const uint64_t src_j = src_i + uint64_t(j) * p.srcDValue, dst_j = dst_i + uint64_t(j) * p.dstNzNStride * C0;
            src.check_read(src_j, p.dValue, api);
            for (uint32_t b = 0; b < pieces; ++b) {
                const uint64_t d = dst_j + uint64_t(b) * p.dstNzC0Stride * C0;
                dst.check(d, C0, api);
                const uint32_t n = (b + 1) * C0 <= p.dValue ? C0 : p.dValue - b * C0;
                std::memcpy(static_cast<void*>(dst.raw() + d), src.raw() + src_j + uint64_t(b) * C0, uint64_t(n) * sizeof(T));
                if (n < C0) std::memset(static_cast<void*>(dst.raw() + d + n), 0, uint64_t(C0 - n) * sizeof(T));
            }
            ++rows;
        }
    }
    // bytes land in L1 as whole 32-byte blocks; one burst per ND row
    trace("DataCopy", Pipe::MTE2, rows * pieces * ONE_BLK, static_cast<uint32_t>(rows), 0, 0, sizeof(T));
}

}  // namespace AscendC
