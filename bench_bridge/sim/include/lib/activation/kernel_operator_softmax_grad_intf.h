// kgen AscendC CPU emulator -- lib/activation/kernel_operator_softmax_grad_intf.h, the install path of the high-level API header kernels
// include for SoftmaxGrad, SoftmaxGradFront. The emulator declares every API in kernel_operator.h; this path only has to exist.
#pragma once
#include "kernel_operator.h"
