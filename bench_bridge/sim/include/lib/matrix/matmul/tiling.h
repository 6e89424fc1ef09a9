// kgen AscendC CPU emulator -- lib/matrix/matmul/tiling.h, the path older CANN releases give the Matmul
// kernel-side tiling types (TCubeTiling, MatmulConfig and its presets); kernels include it next to
// lib/matmul_intf.h. See kgen_sim/matmul/tcube_tiling.h and matmul_types.h for the rules followed.
#pragma once
#include "kernel_operator.h"
#include "kgen_sim/matmul/matmul_types.h"
#include "kgen_sim/matmul/tcube_tiling.h"
