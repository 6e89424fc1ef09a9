// kgen AscendC CPU emulator -- DataCopy of int4b_t data between GM and local memory, dav-2201.
//
// Documented rules followed: an int4b_t element is 4 bits, two per byte (tensor.h); DataCopy moves bytes,
// so the count form of DataCopy with int4b_t tensors moves count / 2 bytes, with the alignment and rounding
// rules of the byte copy (data_copy.h: the UB side 32-byte aligned, count / 2 rounded down to 32 bytes
// with a warning). A count that is odd would move half a byte (`int4-odd-offset`).
#pragma once
#include "kgen_sim/data_copy.h"

namespace kgen::cube {

inline uint32_t int4_bytes(uint32_t count) {
    if (count % 2)
        fail("int4-odd-offset", "DataCopy of %u int4b_t elements: two elements share a byte, so the count must be even", count);
    return count / 2;
}
inline AscendC::GlobalTensor<int8_t> int4_gm_bytes(const AscendC::GlobalTensor<AscendC::int4b_t>& g) {
    AscendC::GlobalTensor<int8_t> b;
    if (g.bounded()) b.SetGlobalBuffer(reinterpret_cast<int8_t*>(g.raw()), (g.GetSize() + 1) / 2);
    else b.SetGlobalBuffer(reinterpret_cast<int8_t*>(g.raw()));
    return b;
}

}  // namespace kgen::cube

namespace AscendC {

/// GM -> local: count int4b_t elements (count / 2 bytes).
inline void DataCopy(const LocalTensor<int4b_t>& dst, const GlobalTensor<int4b_t>& src, const uint32_t count) {
    DataCopy(dst.ReinterpretCast<int8_t>(), kgen::cube::int4_gm_bytes(src), kgen::cube::int4_bytes(count));
}
/// local -> GM: count int4b_t elements (count / 2 bytes).
inline void DataCopy(const GlobalTensor<int4b_t>& dst, const LocalTensor<int4b_t>& src, const uint32_t count) {
    DataCopy(kgen::cube::int4_gm_bytes(dst), src.ReinterpretCast<int8_t>(), kgen::cube::int4_bytes(count));
}

}  // namespace AscendC
