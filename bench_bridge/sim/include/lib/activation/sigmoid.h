// kgen AscendC CPU emulator -- lib/activation/sigmoid.h, the install path of the high-level API header kernels
// include for Sigmoid. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
