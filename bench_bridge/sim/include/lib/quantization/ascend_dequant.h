// kgen AscendC CPU emulator -- lib/quantization/ascend_dequant.h, the install path of the high-level API header kernels
// include for AscendDequant. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
