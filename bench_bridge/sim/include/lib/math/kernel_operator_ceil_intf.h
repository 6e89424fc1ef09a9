// kgen AscendC CPU emulator -- lib/math/kernel_operator_ceil_intf.h, the install path of the high-level API header kernels
// include for Ceil. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
