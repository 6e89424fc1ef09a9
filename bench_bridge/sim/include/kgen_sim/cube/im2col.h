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
//  * Registers (SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary, SetLoadDataRepeat): the feature
//    map's l1H / l1W / padList and the pad value live in per-core registers. LoadData<T, config> with
//    LoadData3DParamsV2 writes them from its parameters when config.isSetFMatrix / isSetPadding are true
//    (the default IS_RESET_LOAD3D_CONFIG) and otherwise uses what SetFmatrix / SetLoadDataPaddingValue set.
//    LoadData3DParamsV2Pro always takes them from the registers; its extConfig packs
//    mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension and its filterConfig
//    dilationFilterH << 40 | dilationFilterW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW.
//  * SetLoadDataBoundary(bytes): a feature-map read at L1 byte address a >= boundary reads a - boundary
//    (the read wraps to the start of L1); 0 = no boundary; the source must start inside it
//    (`load3d-boundary`); 1..1023 is undefined on hardware (warning `load3d-boundary`).
//  * SetLoadDataRepeat({repeatStride, repeatTime, repeatMode}): repeatTime 0 makes the load a no-op;
//    repeatTime 1 (the default) is one load; more repeats are not emulated (`cube-not-emulated`).
//  * Not emulated (`cube-not-emulated`): fMatrixCtrl = true (the docs allow only false).
//  * Runs on MTE1.
//
// @api LoadData3DParamsV2 LoadData3DParamsV2Pro IsResetLoad3dConfig SetFmatrix FmatrixMode SetLoadDataPaddingValue SetLoadDataBoundary SetLoadDataRepeat LoadDataRepeatParam
#pragma once
#include <cstring>

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

inline constexpr uint32_t PAD_SIZE = 4;

struct LoadData3DParamsV2Pro {
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    uint64_t filterConfig = 0x10101010101ull;
};

struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESET_LOAD3D_CONFIG = {true, true};

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

struct LoadDataRepeatParam {
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
};

}  // namespace AscendC

namespace kgen::cube {

/// The Load3D registers of the calling core.
struct Load3dRegs {
    uint16_t l1H = 0, l1W = 0;
    uint8_t pad[4] = {0, 0, 0, 0};
    uint8_t pad_value[8] = {0};  // raw bytes of the last SetLoadDataPaddingValue
    uint32_t boundary = 0;       // bytes, 0 = none
    AscendC::LoadDataRepeatParam repeat;
};
inline Load3dRegs& load3d_regs() {
    static thread_local Load3dRegs regs;
    static thread_local CoreContext* owner = nullptr;
    if (owner != tls_core) { regs = Load3dRegs{}; owner = tls_core; }
    return regs;
}

/// Everything one im2col load needs.
struct Load3dGeom {
    uint32_t l1H, l1W;
    int32_t padL, padR, padT, padB;
    uint32_t channelSize, kExtension, mExtension, kStartPt, mStartPt;
    uint32_t strideW, strideH, filterW, filterH, dilW, dilH;
    bool filterSizeW, filterSizeH, enTranspose, fMatrixCtrl;
};

/// Feature-map element `i` (element index from the source tensor's start), through the boundary wrap.
template <typename T>
inline T fmap_elem(const AscendC::LocalTensor<T>& src, uint64_t i, uint32_t boundary) {
    if (!boundary) return load_elem(src.raw(), i);
    const uint64_t bits = elem_bits<T>();
    const uint64_t bit = src.GetPhyAddr() * 8 + i * bits;  // bit address in L1
    uint64_t byte = bit / 8;
    while (byte >= boundary) byte -= boundary;
    const uint64_t elem = (byte * 8 + bit % 8) / bits;
    return load_elem(reinterpret_cast<const T*>(core().mem_base(Mem::L1)), elem);
}

template <typename T>
inline void load3d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Load3dGeom& g, T padValue,
                   const char* api) {
    constexpr uint32_t C0 = c0<T>();
    require_mem(src, api, "the source feature map", {Mem::L1}, "A1 (L1)");
    require_mem(dst, api, "the destination", {Mem::L0A, Mem::L0B}, "A2 (L0A) or B2 (L0B)");
    const bool to_b = dst.mem() == Mem::L0B;
    const bool transpose_a = !to_b && g.enTranspose;
    if (g.fMatrixCtrl) fail("cube-not-emulated", "%s: fMatrixCtrl = true (feature map from the right-matrix registers) is not emulated", api);
    if ((transpose_a || to_b) && sizeof(T) == 1)
        fail("load3d-param", "%s: %s does not take 1-byte types on dav-2201", api, to_b ? "the L1 -> B2 path" : "enTranspose into A2");
    require_align(dst, api, "the destination", FRACTAL_BYTES);
    const Load3dRegs& r = load3d_regs();
    if (r.repeat.repeatTime == 0) return;
    if (r.repeat.repeatTime > 1)
        fail("cube-not-emulated", "%s: SetLoadDataRepeat with repeatTime %u > 1 is not emulated", api, r.repeat.repeatTime);
    if (g.l1H == 0 || g.l1W == 0 || g.channelSize == 0 || g.kExtension == 0 || g.mExtension == 0) return;
    // the extent that runs along C0 inside a fractal must fill whole fractals; the one along the 16 rows may
    // end inside the last fractal ("covering" the last fractal) on the transposing paths
    const uint32_t m_unit = (to_b || transpose_a) ? C0 : BLOCK, k_unit = (to_b || transpose_a) ? 1 : C0;
    if (g.mExtension % m_unit || g.kExtension % k_unit)
        fail("load3d-param", "%s: into %s%s, mExtension (%u) must be a multiple of %u and kExtension (%u) a multiple of %u", api,
             to_b ? "B2" : "A2", transpose_a ? " with enTranspose" : "", g.mExtension, m_unit, g.kExtension, k_unit);
    if (g.strideW == 0 || g.strideH == 0 || g.dilW == 0 || g.dilH == 0)
        fail("load3d-param", "%s: strides and dilations must be at least 1", api);
    const int32_t kw = int32_t(g.filterW) + (g.filterSizeW ? 256 : 0), kh = int32_t(g.filterH) + (g.filterSizeH ? 256 : 0);
    const int32_t spanW = int32_t(g.dilW) * (kw - 1) + 1, spanH = int32_t(g.dilH) * (kh - 1) + 1;
    const int32_t wo = (int32_t(g.l1W) + g.padL + g.padR - spanW) / int32_t(g.strideW) + 1;
    const int32_t ho = (int32_t(g.l1H) + g.padT + g.padB - spanH) / int32_t(g.strideH) + 1;
    if (wo <= 0 || ho <= 0) fail("load3d-param", "%s: the filter (%dx%d) does not fit the padded %ux%u map", api, kh, kw, g.l1H, g.l1W);
    const uint32_t c1n = ceil_div(g.channelSize, C0);
    if (r.boundary) {
        if (r.boundary < 1024)
            warn("load3d-boundary", "%s: SetLoadDataBoundary(%u): boundaries of 1..1023 bytes are undefined on hardware (minimum 1024)",
                 api, r.boundary);
        if (src.GetPhyAddr() >= r.boundary)
            fail("load3d-boundary", "%s: the feature map starts at L1 byte %llu, outside the SetLoadDataBoundary(%u) region", api,
                 (unsigned long long)src.GetPhyAddr(), r.boundary);
    } else {
        require_elems(src, uint64_t(c1n) * g.l1H * g.l1W * C0, api, "the feature map (C1 x H x W x C0)", "load3d-param");
    }
    require_elems(dst, uint64_t(g.mExtension) * g.kExtension, api, "the destination window", "load3d-param");
    const uint64_t kmax = uint64_t(c1n) * kh * kw * C0;
    if constexpr (!is_int4_v<T>) {
        // the plain A2 load (no transpose, no boundary, K window on whole C0 groups): each C0 group of a row is one
        // contiguous piece of the feature map and of the ZZ destination, moved as a block (same values as below)
        if (!to_b && !transpose_a && !r.boundary && g.kStartPt % C0 == 0) {
            const T* s = src.raw();
            T* d = dst.raw();
            for (uint32_t mi = 0; mi < g.mExtension; ++mi) {
                const int64_t row = int64_t(g.mStartPt) + mi;
                const int32_t oh = int32_t(row / wo), ow = int32_t(row % wo);
                for (uint32_t ki = 0; ki < g.kExtension; ki += C0) {
                    const uint64_t col = uint64_t(g.kStartPt) + ki;
                    T* out = d + zz_offset<T>(mi, ki, g.kExtension);
                    bool copied = false;
                    if (col < kmax && oh < ho) {
                        const uint64_t tap = col / C0;
                        const int32_t fw = int32_t(tap % kw), fh = int32_t((tap / kw) % kh), c1 = int32_t(tap / (uint64_t(kw) * kh));
                        const int32_t ih = oh * int32_t(g.strideH) - g.padT + fh * int32_t(g.dilH);
                        const int32_t iw = ow * int32_t(g.strideW) - g.padL + fw * int32_t(g.dilW);
                        if (ih >= 0 && ih < int32_t(g.l1H) && iw >= 0 && iw < int32_t(g.l1W)) {
                            std::memcpy(static_cast<void*>(out), s + ((uint64_t(c1) * g.l1H + ih) * g.l1W + iw) * C0, C0 * sizeof(T));
                            copied = true;
                        }
                    }
                    if (!copied)
                        for (uint32_t e = 0; e < C0; ++e) out[e] = padValue;
                }
            }
            trace("LoadData", Pipe::MTE1, bytes_of<T>(uint64_t(g.mExtension) * g.kExtension), g.mExtension / BLOCK * (g.kExtension / C0),
                  0, 0, sizeof(T));
            return;
        }
    }
    for (uint32_t mi = 0; mi < g.mExtension; ++mi) {
        const int64_t row = int64_t(g.mStartPt) + mi;
        const int32_t oh = int32_t(row / wo), ow = int32_t(row % wo);
        for (uint32_t ki = 0; ki < g.kExtension; ++ki) {
            const uint64_t col = uint64_t(g.kStartPt) + ki;
            T v = padValue;
            if (col < kmax && oh < ho) {
                const uint32_t c0i = col % C0;
                const uint64_t tap = col / C0;
                const int32_t fw = int32_t(tap % kw), fh = int32_t((tap / kw) % kh), c1 = int32_t(tap / (uint64_t(kw) * kh));
                const int32_t ih = oh * int32_t(g.strideH) - g.padT + fh * int32_t(g.dilH);
                const int32_t iw = ow * int32_t(g.strideW) - g.padL + fw * int32_t(g.dilW);
                if (ih >= 0 && ih < int32_t(g.l1H) && iw >= 0 && iw < int32_t(g.l1W))
                    v = fmap_elem(src, ((uint64_t(c1) * g.l1H + ih) * g.l1W + iw) * C0 + c0i, r.boundary);
            }
            const uint64_t d = to_b ? zn_offset<T>(mi, ki, g.kExtension)
                             : transpose_a ? zz_offset<T>(ki, mi, g.mExtension) : zz_offset<T>(mi, ki, g.kExtension);
            store_elem(dst.raw(), d, v);
        }
    }
    trace("LoadData", Pipe::MTE1, bytes_of<T>(uint64_t(g.mExtension) * g.kExtension), g.mExtension / BLOCK * (g.kExtension / C0), 0,
          0, sizeof(T));
}

}  // namespace kgen::cube

namespace AscendC {

/// Feature-map registers for LoadData3DParamsV2Pro and for LoadData with isSetFMatrix = false.
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
    if (fmatrixMode != FmatrixMode::FMATRIX_LEFT)
        kgen::fail("cube-not-emulated", "SetFmatrix: only FmatrixMode::FMATRIX_LEFT is supported (the docs allow only the left registers)");
    kgen::cube::Load3dRegs& r = kgen::cube::load3d_regs();
    r.l1H = l1H;
    r.l1W = l1W;
    for (int i = 0; i < 4; ++i) r.pad[i] = padList[i];
}
/// Pad value register for LoadData3DParamsV2Pro and for LoadData with isSetPadding = false.
template <typename T>
inline void SetLoadDataPaddingValue(const T padValue) {
    static_assert(sizeof(T) <= 8, "SetLoadDataPaddingValue: scalar types only");
    kgen::cube::Load3dRegs& r = kgen::cube::load3d_regs();
    std::memset(r.pad_value, 0, sizeof r.pad_value);
    std::memcpy(r.pad_value, &padValue, sizeof(T));
}
/// L1 boundary (bytes) for the feature-map reads of LoadData (3Dv2); 0 = the whole L1.
inline void SetLoadDataBoundary(uint32_t boundaryValue) { kgen::cube::load3d_regs().boundary = boundaryValue; }
/// Repeat register of LoadData (3Dv2).
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) { kgen::cube::load3d_regs().repeat = repeatParams; }

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESET_LOAD3D_CONFIG>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p) {
    using namespace kgen;
    cube::Load3dRegs& r = cube::load3d_regs();
    if (defaultConfig.isSetFMatrix) {  // the instruction writes the feature-map registers from its parameters
        r.l1H = p.l1H;
        r.l1W = p.l1W;
        for (int i = 0; i < 4; ++i) r.pad[i] = p.padList[i];
    }
    T pad = p.padValue;
    if (defaultConfig.isSetPadding) {
        std::memset(r.pad_value, 0, sizeof r.pad_value);
        std::memcpy(r.pad_value, &pad, sizeof(T));
    } else {
        std::memcpy(&pad, r.pad_value, sizeof(T));
    }
    const cube::Load3dGeom g{r.l1H, r.l1W, r.pad[0], r.pad[1], r.pad[2], r.pad[3], p.channelSize, p.kExtension, p.mExtension,
                             p.kStartPt, p.mStartPt, p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW,
                             p.dilationFilterH, p.filterSizeW, p.filterSizeH, p.enTranspose, p.fMatrixCtrl};
    cube::load3d(dst, src, g, pad, "LoadData(LoadData3DParamsV2)");
}

/// The packed form: feature map and pad value from the registers, window and filter from extConfig / filterConfig.
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p) {
    using namespace kgen;
    const cube::Load3dRegs& r = cube::load3d_regs();
    T pad;
    std::memcpy(&pad, r.pad_value, sizeof(T));
    auto field = [](uint64_t v, int shift, uint64_t mask) { return static_cast<uint32_t>((v >> shift) & mask); };
    const cube::Load3dGeom g{r.l1H, r.l1W, r.pad[0], r.pad[1], r.pad[2], r.pad[3], p.channelSize,
                             field(p.extConfig, 0, 0xFFFF), field(p.extConfig, 16, 0xFFFF), field(p.extConfig, 32, 0xFFFF),
                             field(p.extConfig, 48, 0xFFFF), field(p.filterConfig, 0, 0xFF), field(p.filterConfig, 8, 0xFF),
                             field(p.filterConfig, 16, 0xFF), field(p.filterConfig, 24, 0xFF), field(p.filterConfig, 32, 0xFF),
                             field(p.filterConfig, 40, 0xFF), p.filterSizeW, p.filterSizeH, p.enTranspose, p.fMatrixCtrl};
    cube::load3d(dst, src, g, pad, "LoadData(LoadData3DParamsV2Pro)");
}

}  // namespace AscendC
