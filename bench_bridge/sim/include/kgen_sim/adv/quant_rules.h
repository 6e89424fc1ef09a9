// kgen AscendC CPU emulator -- temporary-buffer sizes of AscendQuant / AscendDequant /
// AscendAntiQuant on dav-2201, shared by the kernel checks and the host helpers.
//
// Documented rules followed (GetAscendQuantMaxMinTmpSize, GetAscendDequantMaxMinTmpSize,
// GetAscendAntiQuantMaxMinTmpSize pages and their public host implementation), in bytes:
//  * AscendQuant: min 2 * 256; max max(2 * count, 512) rounded up to 32. Factor: 2 live nodes, no extra.
//  * AscendDequant, src [rows, n]: (64 + rows * n + (n + 8)) * 4; min with rows = 1, max with rows = m.
//    Factor (GetAscendDequantTmpBufferFactorSize): 2-D shape: 1 node, extra 8 + 64 + n; 1-D: 2 nodes, extra 72.
//  * AscendAntiQuant: half output needs nothing. bfloat16_t output, per tensor (one scale): min 1024,
//    max src * 4; per channel (scaleSize values): transposed (8 + 8 + 64) * scaleSize * 4, not transposed
//    scaleSize * 2 * 4 + 64 * k * 4 (min = max).
//
// (No public API: shared helper.)
#pragma once
#include <algorithm>
#include <cstdint>

namespace kgen {
namespace adv {

constexpr uint32_t quant_min_tmp() { return 2 * 256; }
constexpr uint32_t quant_max_tmp(uint32_t count) {
    const uint32_t v = 2 * count > 512 ? 2 * count : 512;
    return (v + 31) / 32 * 32;
}
constexpr uint32_t dequant_tmp(uint32_t rows, uint32_t n) { return (64 + rows * n + n + 8) * 4; }
constexpr uint32_t antiquant_min_tmp(bool halfOut, bool tr, uint32_t scaleSize, uint32_t k) {
    if (halfOut) return 0;
    if (scaleSize == 1) return 1024;
    return tr ? 80 * scaleSize * 4 : scaleSize * 2 * 4 + 64 * k * 4;
}
constexpr uint32_t antiquant_max_tmp(bool halfOut, bool tr, uint32_t scaleSize, uint32_t k, uint32_t srcSize) {
    if (halfOut) return 0;
    if (scaleSize == 1) return srcSize * 4;
    return tr ? 80 * scaleSize * 4 : scaleSize * 2 * 4 + 64 * k * 4;
}

}  // namespace adv
}  // namespace kgen
