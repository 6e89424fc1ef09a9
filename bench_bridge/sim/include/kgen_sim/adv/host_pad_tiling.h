// kgen host-side emulation -- Pad / UnPad tiling: the tiling-data classes optiling::PadTiling and
// optiling::UnPadTiling, GetPadMaxMinTmpSize, PadTilingFunc, GetUnPadMaxMinTmpSize, UnPadTilingFunc.
//
// Documented rules followed (Pad Tiling / UnPad Tiling pages and the public host implementation,
// dav-2201), with e = 32 / typeSize elements per block:
//  * srcShape / oriSrcShape are 2-D [height, width]; typeSize 2 or 4; otherwise `pad-tiling` is
//    reported on stderr (CANN's host assertion logs and goes on).
//  * GetPadMaxMinTmpSize: min = 16 * e * 2 * typeSize = 1024 bytes; max = ceil(height * width / 16)
//    * 16 * e * 2 * typeSize (two areas of 16 rows of one block per 16 source elements).
//  * PadTilingFunc fills srcHeight, srcWidth, srcOriWidth (oriSrcShape[1]); widthWithoutLastBlock =
//    width - e; blocksPerRow = width * typeSize / 32; heightTiling = 255; heightFractal = height / 255;
//    heightFractalTail = height % 255; mainLoopOffset = 255 * width; tailBlockOffset = heightFractal *
//    255 * width + widthWithoutLastBlock. With stackBufferSize = 0 it stops there. Otherwise
//    tmpBuffer1BlockNum = stackBufferSize / 1024; tmpBuffer1RowNum = widthTiling = brcbTiling =
//    16 * tmpBuffer1BlockNum; tmpBuffer2Offset = tmpBuffer1BlockNum * 512 / typeSize; widthFractal /
//    widthFractalTail = width / % widthTiling; widthFractalTailAlingned = the tail rounded up to e;
//    brcbFractal / brcbFractalTail = height * width / % brcbTiling; maxRepeatTimes = 254;
//    brcbTilingRepeatTimes(/Tail) = brcbTiling / 8 / % 254; brcbFractalTailRepeatTimes(/Tail) =
//    brcbFractalTail / 8 / % 254. (A stackBufferSize below 1024 gives tmpBuffer1BlockNum 0, and the
//    divisions by widthTiling are then skipped: the fields stay 0.)
//  * GetUnPadMaxMinTmpSize: 0 and 0 on dav-2201 (the emulated platform).
//  * UnPadTilingFunc fills srcHeight, srcWidth; with stackBufferSize > 0 also tmpBuffer1BlockNum,
//    tmpBuffer1RowNum, tmpBuffer2Offset, widthTiling as above, widthFractal = ceil(width /
//    widthTiling) and widthFractalTail = width % widthTiling (widthTiling when that is 0).
//  * The AscendC::tiling::PadTiling / UnPadTiling overloads fill the kernel-side struct the same way.
//
// @api GetPadMaxMinTmpSize PadTilingFunc GetUnPadMaxMinTmpSize UnPadTilingFunc
#pragma once
#include "kgen_sim/host_diag.h"
#include <cstdint>
#include <cstdio>

#include "graph/types.h"
#include "kgen_sim/adv/host_math_tiling.h"
#include "kgen_sim/adv/pad_types.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock);
TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow);
TILING_DATA_FIELD_DEF(uint32_t, heightTiling);
TILING_DATA_FIELD_DEF(uint32_t, heightFractal);
TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset);
TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned);
TILING_DATA_FIELD_DEF(uint32_t, brcbTiling);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractal);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail);
TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes);
TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail);
TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(UnPadTiling)
TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
END_TILING_DATA_DEF;
// Not registered on purpose: the kernel-side structs come from kernel_operator.h (kgen_sim/adv/pad_types.h).
}  // namespace optiling

namespace AscendC {
namespace kgen_host {

/// [height, width] of a 2-D shape with a supported type size; false (and a `pad-tiling` line) otherwise.
inline bool pad_dims(const char* api, const ge::Shape& s, uint32_t typeSize, uint32_t& h, uint32_t& w) {
    if (typeSize != 2 && typeSize != 4) {
        ::kgen::host::host_warn("pad-tiling", "%s: typeSize %u is not supported (2 or 4)", api, typeSize);
        return false;
    }
    if (s.GetDimNum() != 2) {
        ::kgen::host::host_warn("pad-tiling", "%s: the shape has %zu dimensions, it must be 2-D [height, width]",
                     api, s.GetDimNum());
        return false;
    }
    h = static_cast<uint32_t>(s.GetDim(0));
    w = static_cast<uint32_t>(s.GetDim(1));
    return true;
}

template <class Tl>
inline void pad_fill_tiling(const ge::Shape& srcShape, const ge::Shape& oriSrcShape, uint32_t stackBufferSize,
                            uint32_t typeSize, Tl& t) {
    uint32_t h = 0, w = 0, oh = 0, ow = 0;
    if (!pad_dims("PadTilingFunc", srcShape, typeSize, h, w) || !pad_dims("PadTilingFunc", oriSrcShape, typeSize, oh, ow))
        return;
    if (uint64_t(oh) * ow > uint64_t(h) * w)
        ::kgen::host::host_warn("pad-tiling", "PadTilingFunc: oriSrcShape (%u x %u) is larger than srcShape (%u x %u)",
                     oh, ow, h, w);
    const uint32_t e = 32 / typeSize;
    t.srcHeight = h;
    t.srcWidth = w;
    t.srcOriWidth = ow;
    t.widthWithoutLastBlock = w - e;
    t.blocksPerRow = w * typeSize / 32;
    t.heightTiling = 255;
    t.heightFractal = h / 255;
    t.heightFractalTail = h % 255;
    t.mainLoopOffset = 255 * w;
    t.tailBlockOffset = t.heightFractal * 255 * w + t.widthWithoutLastBlock;
    if (stackBufferSize == 0) return;
    const uint32_t blocks = stackBufferSize / typeSize / (512 / typeSize) / 2;
    t.tmpBuffer1BlockNum = blocks;
    t.tmpBuffer1RowNum = 16 * blocks;
    t.tmpBuffer2Offset = blocks * (512 / typeSize);
    const uint32_t wt = 16 * blocks;
    t.widthTiling = wt;
    t.brcbTiling = wt;
    t.maxRepeatTimes = 254;
    if (wt == 0) return;
    t.widthFractal = w / wt;
    t.widthFractalTail = w % wt;
    t.widthFractalTailAlingned = (t.widthFractalTail + e - 1) / e * e;
    const uint32_t total = h * w;
    t.brcbFractal = total / wt;
    t.brcbFractalTail = total % wt;
    t.brcbTilingRepeatTimes = wt / 8 / 254;
    t.brcbTilingRepeatTimesTail = wt / 8 % 254;
    t.brcbFractalTailRepeatTimes = t.brcbFractalTail / 8 / 254;
    t.brcbFractalTailRepeatTimesTail = t.brcbFractalTail / 8 % 254;
}

template <class Tl>
inline void unpad_fill_tiling(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize, Tl& t) {
    uint32_t h = 0, w = 0;
    if (!pad_dims("UnPadTilingFunc", srcShape, typeSize, h, w)) return;
    t.srcHeight = h;
    t.srcWidth = w;
    if (stackBufferSize == 0) return;
    const uint32_t blocks = stackBufferSize / typeSize / (512 / typeSize) / 2;
    t.tmpBuffer1BlockNum = blocks;
    t.tmpBuffer1RowNum = 16 * blocks;
    t.tmpBuffer2Offset = blocks * (512 / typeSize);
    const uint32_t wt = 16 * blocks;
    t.widthTiling = wt;
    if (wt == 0) return;
    t.widthFractal = w / wt + (w % wt ? 1 : 0);
    t.widthFractalTail = w % wt ? w % wt : wt;
}

}  // namespace kgen_host

inline void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    uint32_t h = 0, w = 0;
    if (!kgen_host::pad_dims("GetPadMaxMinTmpSize", srcShape, typeSize, h, w)) return;
    const uint32_t per16 = 16 * (32 / typeSize) * 2 * typeSize;  // 1024 bytes
    const uint64_t n = uint64_t(h) * w;
    minValue = per16;
    maxValue = static_cast<uint32_t>((n ? (n - 1) / 16 + 1 : 0) * per16);
}

inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
    kgen_host::pad_fill_tiling(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling);
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, ::PadTiling& tiling) {
    kgen_host::pad_fill_tiling(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling);
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const TensorShape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
    (void)ascendcPlatform;
    uint32_t h = 0, w = 0;
    if (!kgen_host::pad_dims("GetUnPadMaxMinTmpSize", srcShape, typeSize, h, w)) return;
    maxValue = 0;  // dav-2201: UnPad removes the columns in one gather, without a temporary buffer
    minValue = 0;
}

inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
    kgen_host::unpad_fill_tiling(srcShape, stackBufferSize, typeSize, tiling);
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            ::UnPadTiling& tiling) {
    kgen_host::unpad_fill_tiling(srcShape, stackBufferSize, typeSize, tiling);
}

}  // namespace AscendC
