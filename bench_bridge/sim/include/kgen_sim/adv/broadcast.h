// kgen AscendC CPU emulator -- Broadcast (high-level, dav-2201 forms).
//
// Documented rules followed (dav-2201 Broadcast page):
//  * Broadcast<T, dim, axis, isReuseSource = false>(dst, src, const uint32_t dstShape[dim],
//    const uint32_t srcShape[dim][, sharedTmpBuffer]): dim 1 (a single source value repeated over
//    dstShape[0]) or 2; axis 0 repeats a [1, n] row m times, axis 1 repeats each value of an [m, 1]
//    column n times. T: the page lists int8_t, uint8_t, half, float; the official dav-2201 add_broadcast
//    example also instantiates it for bfloat16_t, int16_t and int32_t, so every 1-, 2- and 4-byte
//    element type is accepted (a broadcast is a copy: the bits are moved unchanged).
//  * srcShape must broadcast to dstShape along `axis` (`broadcast-shape`); with dim = 2 and axis = 0,
//    srcShape[1] * sizeof(T) must be a multiple of 32.
//  * Source and destination must not overlap. Temporary buffer: at least the GetBroadCastMaxMinTmpSize
//    minimum (adv/broadcast_rules.h), else `adv-tmp-too-small`; without it, free UB (`adv-tmp-no-room`).
//
//  * BroadCast<T, dim, axis, isReuseSource>(...): the spelling CANN's Broadcast forwards to (declared in
//    namespace AscendC by the implementation header; the public name of older releases), same forms.
//
// Precision: a copy (exact).
//
// @api Broadcast BroadCast
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/broadcast_rules.h"

namespace kgen {
namespace adv {

template <class T, int dim, int axis>
inline void broadcast(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const uint32_t* ds,
                      const uint32_t* ss, const AscendC::LocalTensor<uint8_t>* tmp) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "Broadcast copies 1-, 2- or 4-byte elements (int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, "
                  "int32_t, uint32_t, float) on dav-2201");
    static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2 on dav-2201");
    static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1 on dav-2201");
    const char* api = "Broadcast";
    const uint32_t m = dim == 2 ? ds[0] : 1, n = dim == 2 ? ds[1] : ds[0];
    const uint32_t sm = dim == 2 ? ss[0] : 1, sn = dim == 2 ? ss[1] : ss[0];
    bool ok = m && n;
    if (dim == 1) ok = ok && (sn == 1 || sn == n);
    else if (axis == 0) ok = ok && sm == 1 && sn == n && (uint64_t(sn) * sizeof(T)) % 32 == 0;
    else ok = ok && sn == 1 && sm == m;
    if (!ok)
        fail("broadcast-shape", "%s<dim %d, axis %d>: srcShape (%u, %u) cannot be broadcast to dstShape (%u, %u) as documented",
             api, dim, axis, sm, sn, m, n);
    const uint64_t nd = uint64_t(m) * n, ns = uint64_t(sm) * sn;
    operand(api, dst, nd);
    operand(api, src, ns);
    no_overlap(api, dst, nd, src, ns, "the source and destination tensors");
    BrcSizes z = broadcast_tmp(uint32_t(ns), uint32_t(nd), m, n, dim == 2 && axis == 1, sizeof(T));
    Tmp t{tmp, z.min, z.max};
    check_tmp(api, t, {{lo_of(dst), hi_of(dst, nd)}, {lo_of(src), hi_of(src, ns)}});
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            const uint64_t si = dim == 1 ? (sn == 1 ? 0 : j) : (axis == 0 ? j : i);
            dst.raw()[uint64_t(i) * n + j] = src.raw()[si];
        }
    clobber_tmp(t);
    trace_call(api, nd * sizeof(T), 2);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
    kgen::adv::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim]) {
    kgen::adv::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr);
}
/// BroadCast: the name under which CANN's Broadcast is implemented, visible in AscendC too (kernels call it
/// directly); the same API.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim]) {
    Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC
