// kgen AscendC CPU emulator -- DataCopy between local memories of the cube unit (dav-2201).
//
// Documented rules followed (AscendC DataCopy data paths for Atlas A2, and the dav-2201 Mmad example):
//  * C1 (L1) -> C2 (bias table): DataCopy(dst, src, DataCopyParams) with blockLen, srcStride and
//    dstStride counted in 64-byte units on dav-2201 (32-byte units on other parts). Runs on MTE1.
//  * C1 (L1) -> C2PIPE2GM (fixpipe buffer): the same form with 128-byte units (assumption: the unit of
//    the fixpipe-buffer path in the CANN intrinsic docs). Runs on FIX.
//  * Any other local -> local copy that touches L1/L0A/L0B/L0C (UB <-> L1, L1 -> L1, ...) has no
//    DataCopy path on dav-2201, where the vector and cube units are separate cores: `wrong-position`.
//    L1 -> L0A/L0B is LoadData, L0C -> GM/L1 is Fixpipe.
//  * The count form copies count * sizeof(T) bytes, which must be a multiple of the path's unit.
#pragma once
#include <cstring>

#include "kgen_sim/cube/layout.h"
#include "kgen_sim/data_copy.h"

namespace kgen {

namespace cube {
/// Bytes per unit of the local path dst <- src, or 0 when dav-2201 has no such DataCopy path.
inline uint32_t local_path_unit(Mem dst, Mem src, Pipe* pipe) {
    if (src == Mem::L1 && dst == Mem::BT) { *pipe = Pipe::MTE1; return 64; }
    if (src == Mem::L1 && dst == Mem::FB) { *pipe = Pipe::FIX; return 128; }
    return 0;
}
template <typename T>
inline uint32_t require_path(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, Pipe* pipe) {
    dst.live("DataCopy");
    src.live("DataCopy");
    const uint32_t unit = local_path_unit(dst.mem(), src.mem(), pipe);
    if (!unit)
        fail("wrong-position", "DataCopy from a %s tensor (%s) to a %s tensor (%s): dav-2201 has no such DataCopy path "
             "(L1 -> L0A/L0B is LoadData, L0C -> GM/L1 is Fixpipe, UB and L1 are on different cores)",
             AscendC::position_name(src.GetPosition()), mem_name(src.mem()), AscendC::position_name(dst.GetPosition()),
             mem_name(dst.mem()));
    return unit;
}
}  // namespace cube

template <typename T>
void cube_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::DataCopyParams& p) {
    Pipe pipe = Pipe::MTE1;
    const uint32_t unit = cube::require_path(dst, src, &pipe);
    const uint64_t epu = unit / sizeof(T), len = uint64_t(p.blockLen) * epu;
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        const uint64_t s = uint64_t(b) * (p.blockLen + p.srcStride) * epu, d = uint64_t(b) * (p.blockLen + p.dstStride) * epu;
        src.check_read(s, len, "DataCopy");
        dst.check(d, len, "DataCopy");
        std::memmove(static_cast<void*>(dst.raw() + d), src.raw() + s, len * sizeof(T));
    }
    trace("DataCopy", pipe, uint64_t(p.blockCount) * p.blockLen * unit, p.blockCount, 0, 0, sizeof(T));
}

template <typename T>
void cube_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count) {
    Pipe pipe = Pipe::MTE1;
    const uint32_t unit = cube::require_path(dst, src, &pipe);
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % unit)
        fail("datacopy-unit", "DataCopy of %u elements (%llu bytes) from %s to %s: this path moves whole %u-byte units", count,
             (unsigned long long)bytes, mem_name(src.mem()), mem_name(dst.mem()), unit);
    src.check_read(0, count, "DataCopy");
    dst.check(0, count, "DataCopy");
    std::memmove(static_cast<void*>(dst.raw()), src.raw(), bytes);
    trace("DataCopy", pipe, bytes, 1, 0, 0, sizeof(T));
}

}  // namespace kgen
