// kgen AscendC CPU emulator -- lib/pad/kernel_operator_pad_intf.h, the install path of the high-level API header kernels
// include for Pad, UnPad. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
