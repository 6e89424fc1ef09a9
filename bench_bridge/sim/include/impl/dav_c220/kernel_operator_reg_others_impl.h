// kgen AscendC CPU emulator -- the internal header path `impl/dav_c220/kernel_operator_reg_others_impl.h`.
//
// CANN's kernels for the dav-c220 (Atlas A2) core include this implementation header directly, guarded
// by `#if __CCE_AICORE__ == 220`, for the register-level vector controls (mask, counter/normal mode,
// accumulator reads) that kernel_operator.h also brings in. In the emulator every API it would add is
// declared by the umbrella header, so the path exists and includes that: a kernel that names it builds,
// and what it then calls is checked like any other API (an API the emulator lacks is a compile error
// naming it).
#pragma once
#include "kernel_operator.h"
