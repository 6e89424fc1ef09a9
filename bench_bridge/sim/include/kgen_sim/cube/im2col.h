// kgen AscendC CPU emulator -- LoadData with LoadData3DParamsV2: im2col from L1 into L0A.
//
// Documented rules followed (AscendC Load3Dv2, dav-2201), for the common case emulated here:
//  * The source in A1 (L1) is one feature map in NC1HWC0 order: element (c, h, w) at
//    ((c / C0) * l1H + h) * l1W * C0 + w * C0 + c % C0, C0 = 32 bytes of elements (64 for int4b_t, packed
//    two per byte), channelSize channels.
//  * It is seen as the im2col matrix X[M, K]: row p = oh * Wo + ow is one output position,
//    column k = ((c1 * Kh + fh) * Kw + fw) * C0 + c0 one (channel block, filter tap, channel) triple,
//    X[p, k] = fmap(c1 * C0 + c0, oh * strideH - padTop + fh * dilationH, ow * strideW - padLeft + fw * dilationW),
//    or padValue outside the map. Wo = (l1W + padLeft + padRight - dilationW * (Kw - 1) - 1) / strideW + 1;
//    Kw = filterW (+256 with filterSizeW), Kh likewise; padList = {left, right, top, bottom}.
//  * The window W = X[mStartPt .. + mExtension, kStartPt .. + kExtension) is written
//      to A2 (L0A), enTranspose = false: in the ZZ layout of layout.h (16 x C0 fractals), W(i, j) at
//        zz(i, j; K extent kExtension); mExtension a multiple of 16, kExtension of C0;
//      to A2 with enTranspose: the whole window transposed (each fractal transposed and moved to the
//        mirrored fractal position): W(i, j) at zz(j, i; K extent mExtension), mExtension a multiple of C0;
//      to B2 (L0B; the move always transposes there, enTranspose has no effect): in the ZN layout of the
//        right matrix with the window's rows as K: W(i, j) at zn(i, j; N extent kExtension), mExtension a
//        multiple of C0.
//    On these two transposing paths kExtension may end inside its last 16-row fractal ("covering" it), and
//    1-byte types are not allowed on dav-2201 (`load3d-param`).
//    A wrong multiple is `load3d-param`; l1H, l1W, channelSize, kExtension or mExtension = 0 is a no-op.
//  * Not emulated (`cube-not-emulated`): fMatrixCtrl = true (the docs allow only false).
//  * Runs on MTE1.
//
// @api LoadData3DParamsV2
#pragma once
#include "kgen_sim/cube/load_data.h"

namespace AscendC {

template <typename T>
struct LoadData3DParamsV2 {
    LoadData3DParamsV2() = default;
    LoadData3DParamsV2(const uint8_t padListIn[4], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn, uint16_t kExtensionIn,
                       uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn, uint8_t strideWIn, uint8_t strideHIn,
                       uint8_t filterWIn, uint8_t filterHIn, uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, bool enTransposeIn,
                       bool enSmallKIn, T padValueIn, bool filterSizeWIn = false, bool filterSizeHIn = false, bool fMatrixCtrlIn = false)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn), filterH(filterHIn),
          dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn),
          padValue(padValueIn), filterSizeW(filterSizeWIn), filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn) {
        for (int i = 0; i < 4; ++i) padList[i] = padListIn[i];
    }
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = T(0);
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p) {
    using namespace kgen;
    using kgen::cube::BLOCK;
    const char* api = "LoadData(LoadData3DParamsV2)";
    constexpr uint32_t C0 = cube::c0<T>();
    cube::require_mem(src, api, "the source feature map", {Mem::L1}, "A1 (L1)");
    cube::require_mem(dst, api, "the destination", {Mem::L0A, Mem::L0B}, "A2 (L0A) or B2 (L0B)");
    const bool to_b = dst.mem() == Mem::L0B;
    const bool transpose_a = !to_b && p.enTranspose;
    if (p.fMatrixCtrl) fail("cube-not-emulated", "%s: fMatrixCtrl = true (feature map from the right-matrix registers) is not emulated", api);
    if ((transpose_a || to_b) && sizeof(T) == 1)
        fail("load3d-param", "%s: %s does not take 1-byte types on dav-2201", api, to_b ? "the L1 -> B2 path" : "enTranspose into A2");
    cube::require_align(dst, api, "the destination", cube::FRACTAL_BYTES);
    if (p.l1H == 0 || p.l1W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0) return;
    // the extent that runs along C0 inside a fractal must fill whole fractals; the one along the 16 rows may
    // end inside the last fractal ("covering" the last fractal) on the transposing paths
    const uint32_t m_unit = (to_b || transpose_a) ? C0 : BLOCK, k_unit = (to_b || transpose_a) ? 1 : C0;
    if (p.mExtension % m_unit || p.kExtension % k_unit)
        fail("load3d-param", "%s: into %s%s, mExtension (%u) must be a multiple of %u and kExtension (%u) a multiple of %u", api,
             to_b ? "B2" : "A2", transpose_a ? " with enTranspose" : "", p.mExtension, m_unit, p.kExtension, k_unit);
    if (p.strideW == 0 || p.strideH == 0 || p.dilationFilterW == 0 || p.dilationFilterH == 0)
        fail("load3d-param", "%s: strides and dilations must be at least 1", api);
    const int32_t kw = p.filterW + (p.filterSizeW ? 256 : 0), kh = p.filterH + (p.filterSizeH ? 256 : 0);
    const int32_t padL = p.padList[0], padR = p.padList[1], padT = p.padList[2], padB = p.padList[3];
    const int32_t spanW = p.dilationFilterW * (kw - 1) + 1, spanH = p.dilationFilterH * (kh - 1) + 1;
    const int32_t wo = (int32_t(p.l1W) + padL + padR - spanW) / p.strideW + 1;
    const int32_t ho = (int32_t(p.l1H) + padT + padB - spanH) / p.strideH + 1;
    if (wo <= 0 || ho <= 0) fail("load3d-param", "%s: the filter (%dx%d) does not fit the padded %ux%u map", api, kh, kw, p.l1H, p.l1W);
    const uint32_t c1n = cube::ceil_div(p.channelSize, C0);
    cube::require_elems(src, uint64_t(c1n) * p.l1H * p.l1W * C0, api, "the feature map (C1 x H x W x C0)", "load3d-param");
    cube::require_elems(dst, uint64_t(p.mExtension) * p.kExtension, api, "the destination window", "load3d-param");
    const uint64_t kmax = uint64_t(c1n) * kh * kw * C0;
    for (uint32_t mi = 0; mi < p.mExtension; ++mi) {
        const int64_t row = int64_t(p.mStartPt) + mi;
        const int32_t oh = int32_t(row / wo), ow = int32_t(row % wo);
        for (uint32_t ki = 0; ki < p.kExtension; ++ki) {
            const uint64_t col = uint64_t(p.kStartPt) + ki;
            T v = p.padValue;
            if (col < kmax && oh < ho) {
                const uint32_t c0i = col % C0;
                const uint64_t tap = col / C0;
                const int32_t fw = int32_t(tap % kw), fh = int32_t((tap / kw) % kh), c1 = int32_t(tap / (uint64_t(kw) * kh));
                const int32_t ih = oh * p.strideH - padT + fh * p.dilationFilterH;
                const int32_t iw = ow * p.strideW - padL + fw * p.dilationFilterW;
                if (ih >= 0 && ih < p.l1H && iw >= 0 && iw < p.l1W)
                    v = cube::load_elem(src.raw(), ((uint64_t(c1) * p.l1H + ih) * p.l1W + iw) * C0 + c0i);
            }
            const uint64_t d = to_b ? cube::zn_offset<T>(mi, ki, p.kExtension)
                             : transpose_a ? cube::zz_offset<T>(ki, mi, p.mExtension) : cube::zz_offset<T>(mi, ki, p.kExtension);
            cube::store_elem(dst.raw(), d, v);
        }
    }
    trace("LoadData", Pipe::MTE1, bytes_of<T>(uint64_t(p.mExtension) * p.kExtension),
          p.mExtension / BLOCK * (p.kExtension / C0), 0, 0, sizeof(T));
}

}  // namespace AscendC
