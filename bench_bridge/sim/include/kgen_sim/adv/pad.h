// kgen AscendC CPU emulator -- Pad and UnPad (high-level, dav-2201): width padding of a 2-D tensor.
//
// Documented rules followed (Pad / UnPad pages and their tiling pages, dav-2201):
//  * Pad<T>(dst, src, PadParams&, [sharedTmpBuffer,] PadTiling&) pads a [height, width] tensor along
//    the width to a 32-byte row; T: int16_t, uint16_t, half, int32_t, uint32_t, float. The shape comes
//    from the tiling (srcHeight, srcWidth, srcOriWidth), as on the NPU.
//    - Scenario 1, width * sizeof(T) not a multiple of 32: the source rows are packed (row j starts at
//      element j * width); each destination row is leftPad fill values, the width source values and
//      rightPad fill values, and rows are leftPad + width + rightPad elements apart. That row length
//      must be the 32-byte aligned width (the documented "pad to 32 B, never beyond it"; anything else
//      leaves destination rows off the 32-byte grid the NPU writes on): `pad-width` error.
//      This scenario works in the temporary buffer: it needs PadTilingFunc to have been given a
//      stackBufferSize of at least GetPadMaxMinTmpSize's minimum (1024 B), else `pad-tiling`; a passed
//      sharedTmpBuffer smaller than the 2 * tmpBuffer1BlockNum * 512 bytes the tiling plans for is
//      `adv-tmp-too-small` (without one, free UB must hold them: `adv-tmp-no-room`).
//    - Scenario 2, width already 32-byte aligned with redundant trailing columns (srcOriWidth <
//      srcWidth): the destination is the source with columns [srcOriWidth, srcOriWidth + rightPad) of
//      every row set to the fill value; only right padding is supported (leftPad != 0: `pad-width`),
//      the padded columns must stay inside the row and the redundant columns inside the row's last
//      32-byte block (`pad-width`). An aligned width with no redundant column is documented as not
//      supported (`pad-width`).
//    - The source data (height * width elements) must be a multiple of 32 bytes (`pad-width`).
//    - padValue (int32_t) is converted to T as static_cast<T> does.
//  * UnPad<T>(dst, src, UnPadParams&, [sharedTmpBuffer,] UnPadTiling&) removes rightPad columns from
//    each row of a [srcHeight, srcWidth] tensor whose width is 32-byte aligned (else `unpad-width`);
//    0 < rightPad and rightPad * sizeof(T) < 32 (else `unpad-width`); leftPad is documented as not in
//    effect yet (a nonzero leftPad is a `unpad-left-ignored` warning). The destination is packed:
//    row j occupies elements [j * (width - rightPad), (j + 1) * (width - rightPad)). No temporary
//    buffer on dav-2201 (GetUnPadMaxMinTmpSize gives 0).
//  * Operands are LocalTensors at 32-byte aligned UB addresses; source and destination must not
//    overlap (scenario 2 of Pad may work in place: it copies, then fills).
//
// Precision: copies and fills (exact).
//
// @api Pad UnPad
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/adv/adv_common.h"
#include "kgen_sim/adv/pad_types.h"

namespace kgen {
namespace adv {

template <class T>
inline constexpr bool pad_type_v = one_of_v<T, int16_t, uint16_t, half, int32_t, uint32_t, float>;

template <class T> inline T pad_fill(int32_t v) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(v);
    else return T(static_cast<float>(v));
}

template <class T>
inline void pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const AscendC::PadParams& p,
                const LocalTensor<uint8_t>* tmp, const PadTiling& t) {
    static_assert(pad_type_v<T>, "Pad supports int16_t, uint16_t, half, int32_t, uint32_t and float");
    const char* api = "Pad";
    const uint32_t h = t.srcHeight, w = t.srcWidth, ow = t.srcOriWidth, epb = 32 / sizeof(T);
    if (h == 0 || w == 0)
        fail("pad-tiling", "%s: the tiling has no shape (srcHeight %u, srcWidth %u): fill it with PadTilingFunc", api, h, w);
    if ((uint64_t(h) * w * sizeof(T)) % 32)
        fail("pad-width", "%s: the source data (%u x %u elements, %llu bytes) must be a multiple of 32 bytes (documented)",
             api, h, w, (unsigned long long)(uint64_t(h) * w * sizeof(T)));
    const T fill = pad_fill<T>(p.padValue);
    if ((w * sizeof(T)) % 32 == 0) {  // scenario 2
        if (ow >= w)
            fail("pad-width", "%s: width %u is already 32-byte aligned and holds no redundant column (srcOriWidth %u): "
                 "Pad does not support this (documented)", api, w, ow);
        if (p.leftPad)
            fail("pad-width", "%s: with a 32-byte aligned width only right padding is supported (leftPad %u)", api, p.leftPad);
        if (w - ow >= epb)
            fail("pad-width", "%s: the redundant columns (%u) must lie in the last 32-byte block of a row (at most %u)", api,
                 w - ow, epb - 1);
        if (ow + p.rightPad > w)
            fail("pad-width", "%s: srcOriWidth %u + rightPad %u exceeds the 32-byte aligned width %u", api, ow, p.rightPad, w);
        const uint64_t n = uint64_t(h) * w;
        operand(api, dst, n);
        operand(api, src, n);
        if (lo_of(dst) != lo_of(src)) no_overlap(api, dst, n, src, n, "the source and destination tensors");
        T* d = dst.raw();
        const T* s = src.raw();
        for (uint64_t i = 0; i < n; ++i) d[i] = s[i];
        for (uint32_t r = 0; r < h; ++r)
            for (uint32_t c = ow; c < ow + p.rightPad; ++c) d[uint64_t(r) * w + c] = fill;
        trace_call(api, n * sizeof(T), 2);
        return;
    }
    // scenario 1
    const uint32_t wa = (w + epb - 1) / epb * epb, wo = w + p.leftPad + p.rightPad;
    if (wo != wa)
        fail("pad-width", "%s: leftPad %u + width %u + rightPad %u = %u, but a padded row must be the 32-byte aligned width %u",
             api, p.leftPad, w, p.rightPad, wo, wa);
    if (t.tmpBuffer1BlockNum == 0)
        fail("pad-tiling", "%s: width %u is not 32-byte aligned, which needs a temporary buffer, but the tiling plans none: "
             "pass PadTilingFunc a stackBufferSize of at least GetPadMaxMinTmpSize's minimum (1024 bytes)", api, w);
    const uint64_t ns = uint64_t(h) * w, nd = uint64_t(h) * wo;
    operand(api, dst, nd);
    operand(api, src, ns);
    no_overlap(api, dst, nd, src, ns, "the source and destination tensors");
    const uint32_t need = pad_tiling_tmp_bytes(t);
    Tmp tb{tmp, need, need};
    check_tmp(api, tb, {{lo_of(dst), hi_of(dst, nd)}, {lo_of(src), hi_of(src, ns)}});
    T* d = dst.raw();
    const T* s = src.raw();
    for (uint32_t r = 0; r < h; ++r) {
        T* row = d + uint64_t(r) * wo;
        for (uint32_t c = 0; c < p.leftPad; ++c) row[c] = fill;
        for (uint32_t c = 0; c < w; ++c) row[p.leftPad + c] = s[uint64_t(r) * w + c];
        for (uint32_t c = 0; c < p.rightPad; ++c) row[p.leftPad + w + c] = fill;
    }
    clobber_tmp(tb);
    trace_call(api, nd * sizeof(T), 4);
}

template <class T>
inline void unpad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const AscendC::UnPadParams& p,
                  const LocalTensor<uint8_t>* tmp, const UnPadTiling& t) {
    static_assert(pad_type_v<T>, "UnPad supports int16_t, uint16_t, half, int32_t, uint32_t and float");
    (void)tmp;  // dav-2201 needs no temporary buffer
    const char* api = "UnPad";
    const uint32_t h = t.srcHeight, w = t.srcWidth, epb = 32 / sizeof(T);
    if (h == 0 || w == 0)
        fail("pad-tiling", "%s: the tiling has no shape (srcHeight %u, srcWidth %u): fill it with UnPadTilingFunc", api, h, w);
    if ((w * sizeof(T)) % 32)
        fail("unpad-width", "%s: width %u is not 32-byte aligned; UnPad only removes columns from aligned rows (documented)",
             api, w);
    if (p.rightPad == 0 || p.rightPad >= epb)
        fail("unpad-width", "%s: rightPad %u must be greater than 0 and less than 32 bytes (%u elements)", api, p.rightPad, epb);
    if (p.leftPad)
        warn("unpad-left-ignored", "%s: leftPad %u has no effect (documented: only right unpadding is in effect)", api, p.leftPad);
    const uint32_t wo = w - p.rightPad;
    const uint64_t ns = uint64_t(h) * w, nd = uint64_t(h) * wo;
    operand(api, dst, nd);
    operand(api, src, ns);
    no_overlap(api, dst, nd, src, ns, "the source and destination tensors");
    T* d = dst.raw();
    const T* s = src.raw();
    for (uint32_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c < wo; ++c) d[uint64_t(r) * wo + c] = s[uint64_t(r) * w + c];
    trace_call(api, ns * sizeof(T), 1);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
    kgen::adv::pad<T>(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams, PadTiling& tiling) {
    kgen::adv::pad<T>(dstTensor, srcTensor, padParams, nullptr, tiling);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
    kgen::adv::unpad<T>(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  UnPadTiling& tiling) {
    kgen::adv::unpad<T>(dstTensor, srcTensor, unPadParams, nullptr, tiling);
}

}  // namespace AscendC
