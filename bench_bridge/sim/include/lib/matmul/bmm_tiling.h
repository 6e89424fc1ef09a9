// kgen host-side emulation -- lib/matmul/bmm_tiling.h: the Matmul tiling classes (see
// kgen_sim/matmul/host_tiling.h for the rules followed).
#pragma once
#include "kgen_sim/matmul/host_tiling.h"
