// kgen AscendC CPU emulator -- lib/math/cumsum.h, the install path of the high-level API header kernels
// include for CumSum. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
