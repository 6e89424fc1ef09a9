// kgen AscendC CPU emulator -- lib/utils/init_global_memory.h, the install path of the high-level API header
// kernels include for Fill / InitGlobalMemory. The emulator declares every API in kernel_operator.h; this
// path only has to exist.
#pragma once
#include "kernel_operator.h"
