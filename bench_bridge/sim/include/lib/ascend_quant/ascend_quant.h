// kgen AscendC CPU emulator -- lib/ascend_quant/ascend_quant.h, the install path of the high-level API header kernels
// include for AscendQuant. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
