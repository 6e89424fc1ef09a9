// kgen AscendC CPU emulator -- lib/normalization/kernel_operator_rmsnorm_intf.h, the install path of the high-level API header kernels
// include for RmsNorm. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
