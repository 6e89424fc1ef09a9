// kgen AscendC CPU emulator -- system size queries (the "system variable access" family).
//
// Documented rule followed (GetDataBlockSizeInBytes page): a constexpr int16_t giving the size of one
// data block of the current chip in bytes, for computing repeatTime / block and repeat strides. On
// dav-2201 (Atlas A2/A3) a data block is 32 bytes (8 per 256-byte repeat).
//
// @api GetDataBlockSizeInBytes
#pragma once
#include <cstdint>

namespace AscendC {

constexpr int16_t GetDataBlockSizeInBytes() { return 32; }

}  // namespace AscendC
