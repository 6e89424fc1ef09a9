// kgen AscendC CPU emulator -- temporary size of the byte-mask Select, shared by the kernel check
// (adv/select_bytes.h) and the host helpers (adv/host_select_tiling.h).
//
// Documented rule followed (dav-2201 GetSelectMaxMinTmpSize): max(1024, align32(n) * 2 + 512) bytes with
// n the source element count (capped at 4096 for the minimum), plus align32(n * maskTypeSize) when the
// source and mask row lengths differ, isReuseMask is false and the mask row is longer than 1.
//
// (No public API: shared helper.)
#pragma once
#include <cstdint>

namespace kgen {
namespace adv {

constexpr uint32_t select_bytes_tmp(uint32_t n, uint32_t maskTs, bool differ, bool reuse, uint32_t maskLast, bool minimum) {
    const uint32_t cal = (minimum && n > 4096) ? 4096 : n;
    uint32_t v = (cal + 31) / 32 * 32 * 2 + 512;
    if (v < 1024) v = 1024;
    if (differ && !reuse && maskLast > 1) v += (n * maskTs + 31) / 32 * 32;
    return v;
}

}  // namespace adv
}  // namespace kgen
