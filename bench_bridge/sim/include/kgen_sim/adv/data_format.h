// kgen AscendC CPU emulator -- the DataFormat enumeration (layout tag of ShapeInfo, TransData and
// the high-level APIs' NZ switches).
//
// Documented rules followed (ShapeInfo / GetTransDataMaxMinTmpSize pages): enum class DataFormat :
// uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D }. The emulator only
// computes in ND; the other values are accepted as tags.
//
// @api DataFormat
#pragma once
#include <cstdint>

namespace AscendC {
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
}  // namespace AscendC
