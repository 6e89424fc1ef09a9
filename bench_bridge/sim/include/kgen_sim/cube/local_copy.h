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
//  * C1 (L1, half or bfloat16) -> C2 (bias table, float): DataCopy(LocalTensor<float>, LocalTensor<half>,
//    DataCopyParams) converts each element to float on the way (the bias-table path's conversion, which
//    Catlass's CopyL1ToBT uses); blockLen, srcStride and dstStride are counted in 64-byte units of the
//    *source* (32 half elements; Catlass computes blockLen = n / (64 / sizeof(src))), so a unit lands as
//    128 bytes of float. Any other pair of types or positions is `wrong-position` / `datacopy-type`.
#pragma once
#include <type_traits>
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

template <typename D, typename S>
void cube_convert_copy(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, const AscendC::DataCopyParams& p) {
    dst.live("DataCopy");
    src.live("DataCopy");
    if (!(src.mem() == Mem::L1 && dst.mem() == Mem::BT))
        fail("wrong-position", "DataCopy between tensors of different types from %s to %s: only L1 (half/bfloat16) -> the bias "
             "table (float) converts on the way", mem_name(src.mem()), mem_name(dst.mem()));
    if constexpr (std::is_same_v<D, float> && (std::is_same_v<S, half> || std::is_same_v<S, bfloat16_t>)) {
        const uint64_t epu = 64 / sizeof(S), len = uint64_t(p.blockLen) * epu;
        for (uint32_t b = 0; b < p.blockCount; ++b) {
            const uint64_t s = uint64_t(b) * (p.blockLen + p.srcStride) * epu, d = uint64_t(b) * (p.blockLen + p.dstStride) * epu;
            src.check_read(s, len, "DataCopy");
            dst.check(d, len, "DataCopy");
            for (uint64_t i = 0; i < len; ++i) dst.raw()[d + i] = static_cast<float>(src.raw()[s + i]);
        }
        trace("DataCopy", Pipe::MTE1, uint64_t(p.blockCount) * p.blockLen * 64, p.blockCount, 0, 0, sizeof(S));
    } else {
        fail("datacopy-type", "DataCopy from a %u-byte-element L1 tensor to a %u-byte-element bias table tensor: the converting "
             "path is half/bfloat16 -> float only", unsigned(sizeof(S)), unsigned(sizeof(D)));
    }
}

}  // namespace kgen

namespace AscendC {
/// L1 -> bias table with conversion (see the file's rules).
template <typename D, typename S, std::enable_if_t<!std::is_same_v<D, S>, int> = 0>
inline void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p) {
    kgen::cube_convert_copy(dst, src, p);
}
}  // namespace AscendC
