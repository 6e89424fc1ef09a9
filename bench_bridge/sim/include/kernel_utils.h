// kgen AscendC CPU emulator -- `kernel_utils.h`, CANN's kernel utility header, which some published kernels
// include next to kernel_operator.h (NPUKernelBench's CoalesceSparse, ReverseSequence and the norm-grad
// kernels' platform.h). Its utilities (type traits, alignment and size helpers, assertion macros) are
// declared by the emulator's umbrella header, so this path includes that.
#pragma once
#include "kernel_operator.h"
