// kgen AscendC CPU emulator -- lib/swiglu/swiglu.h, the install path of the high-level API header kernels
// include for SwiGLU. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
