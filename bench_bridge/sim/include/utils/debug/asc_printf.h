// kgen AscendC CPU emulator -- utils/debug/asc_printf.h, the header kernel-launch programs include for
// device-side printf / PRINTF (the emulator's are declared with the rest of the API in kernel_operator.h;
// output goes to the program's stdout, one line per call, as the NPU's printf does after the kernel).
#pragma once
#include "kernel_operator.h"
