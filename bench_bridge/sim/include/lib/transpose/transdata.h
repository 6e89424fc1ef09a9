// kgen AscendC CPU emulator -- lib/transpose/transdata.h, the install path of the high-level API header kernels
// include for TransData. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
