// kgen AscendC CPU emulator -- lib/normalization/normalize.h, the install path of the high-level API header kernels
// include for Normalize. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
