// kgen AscendC CPU emulator -- lib/activation/kernel_operator_silu_intf.h, the install path of the high-level API header kernels
// include for Silu. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
