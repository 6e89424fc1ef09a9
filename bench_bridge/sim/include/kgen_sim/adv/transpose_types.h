// kgen AscendC CPU emulator -- ConfusionTransposeTiling, shared by the high-level Transpose
// (ConfusionTranspose) kernel side and its host tiling functions.
//
// Documented rules followed (Transpose / Transpose Tiling pages, dav-2201): the kernel-side
// ConfusionTransposeTiling (a plain struct at global scope, also AscendC::tiling::ConfusionTransposeTiling)
// holds 18 uint32_t fields param0 .. param17 whose meaning depends on the TransposeType the host
// filled them for (adv/host_transpose_tiling.h lists them); kernels may also fill them by hand.
// The host class optiling::ConfusionTransposeTiling has the same fields.
//
// @api ConfusionTransposeTiling
#pragma once
#include <cstdint>

struct ConfusionTransposeTiling {
    uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0;
    uint32_t param6 = 0, param7 = 0, param8 = 0, param9 = 0, param10 = 0, param11 = 0;
    uint32_t param12 = 0, param13 = 0, param14 = 0, param15 = 0, param16 = 0, param17 = 0;
};

namespace AscendC {
namespace tiling {
using ConfusionTransposeTiling = ::ConfusionTransposeTiling;
}  // namespace tiling
}  // namespace AscendC
