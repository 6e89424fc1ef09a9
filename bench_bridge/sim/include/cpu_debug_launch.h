// kgen AscendC CPU emulator -- "cpu_debug_launch.h", included by newer AscendC samples when
// ASCENDC_CPU_DEBUG is defined, to make `kernel<<<...>>>(...)` launches run in CPU debug mode.
// kgen rewrites `<<<>>>` launches itself (bench_bridge/sim/launch_syntax.py), so this header only
// brings in the CPU-debug helpers (GmAlloc, ICPU_RUN_KF, ...) for programs that also use them.
#pragma once
#include "tikicpulib.h"
