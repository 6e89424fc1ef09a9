// kgen AscendC CPU emulator -- lib/softmax/kernel_operator_simple_softmax_intf.h, the install path of the high-level API header kernels
// include for SimpleSoftMax. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
