// kgen AscendC CPU emulator -- kernel-side tiling structures of the high-level APIs.
//
// Kernels include this header for the tiling structs the host fills (SoftMaxTiling and the other
// high-level API tiling types). The emulator defines them with the high-level library; the cube
// family (TCubeTiling) follows with the cube unit.
#pragma once
#include "kernel_operator.h"
#include "kgen_sim/matmul/tcube_tiling.h"
