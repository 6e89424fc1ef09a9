// kgen AscendC CPU emulator -- lib/gelu/kernel_operator_gelu_intf.h, the install path of the high-level API header kernels
// include for Gelu, FasterGelu. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
