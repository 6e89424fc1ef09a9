// kgen AscendC CPU emulator -- the data types Pad / UnPad share between the kernel and the host.
//
// Documented rules followed (Pad, UnPad and their Tiling pages, dav-2201):
//  * PadParams {uint16_t leftPad, uint16_t rightPad, int32_t padValue} (columns, and the fill value);
//    UnPadParams {uint16_t leftPad, uint16_t rightPad}. Both can be built from braces or a constructor.
//  * PadTiling (kernel side: a plain struct at global scope, also AscendC::tiling::PadTiling) has 26
//    uint32_t fields in this order: srcHeight, srcWidth, srcOriWidth, widthWithoutLastBlock,
//    blocksPerRow, heightTiling, heightFractal, heightFractalTail, mainLoopOffset, tailBlockOffset,
//    tmpBuffer1BlockNum, tmpBuffer1RowNum, tmpBuffer2Offset, widthTiling, widthFractal,
//    widthFractalTail, widthFractalTailAlingned (sic), brcbTiling, brcbFractal, brcbFractalTail,
//    maxRepeatTimes, brcbTilingRepeatTimes, brcbTilingRepeatTimesTail, brcbFractalTailRepeatTimes,
//    brcbFractalTailRepeatTimesTail, reserved.
//  * UnPadTiling: srcHeight, srcWidth, tmpBuffer1BlockNum, tmpBuffer1RowNum, tmpBuffer2Offset,
//    widthTiling, widthFractal, widthFractalTail.
// The host classes optiling::PadTiling / optiling::UnPadTiling (adv/host_pad_tiling.h) have the same
// fields, so their SaveToBuffer bytes are these structs.
//
// @api PadParams UnPadParams PadTiling UnPadTiling
#pragma once
#include <cstdint>

struct PadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0;
    uint32_t widthWithoutLastBlock = 0, blocksPerRow = 0, heightTiling = 0, heightFractal = 0, heightFractalTail = 0;
    uint32_t mainLoopOffset = 0, tailBlockOffset = 0;
    uint32_t tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0, widthFractal = 0, widthFractalTail = 0, widthFractalTailAlingned = 0;
    uint32_t brcbTiling = 0, brcbFractal = 0, brcbFractalTail = 0, maxRepeatTimes = 0;
    uint32_t brcbTilingRepeatTimes = 0, brcbTilingRepeatTimesTail = 0;
    uint32_t brcbFractalTailRepeatTimes = 0, brcbFractalTailRepeatTimesTail = 0;
    uint32_t reserved = 0;
};

struct UnPadTiling {
    uint32_t srcHeight = 0, srcWidth = 0;
    uint32_t tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
};

namespace AscendC {
namespace tiling {
using PadTiling = ::PadTiling;
using UnPadTiling = ::UnPadTiling;
}  // namespace tiling

struct PadParams {
    PadParams() = default;
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    UnPadParams() = default;
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};
}  // namespace AscendC

namespace kgen {
namespace adv {
/// Bytes of the temporary buffer one Pad call with this tiling works in (two areas of
/// tmpBuffer1BlockNum * 16 blocks each); 0 when the tiling asks for none.
inline uint32_t pad_tiling_tmp_bytes(const PadTiling& t) { return 2u * t.tmpBuffer1BlockNum * 16u * 32u; }
}  // namespace adv
}  // namespace kgen
