// kgen AscendC CPU emulator -- g_coreType, the type of the core running the kernel.
//
// Documented rule followed: bisheng compiles the kernel code of a MIX kernel once per core type (the
// cube pass and the vector pass); in each pass `g_coreType` is a compile-time constant (AscendC::AIC or
// AscendC::AIV), so it can be a template argument (`template <int32_t CORE_TYPE = g_coreType>`) or an
// `if constexpr` condition, and ASCEND_IS_AIC / ASCEND_IS_AIV test it.
//
// kgen's compiler driver force-includes this header after the precompiled prelude (it is not part of the
// PCH, so one PCH serves every pass). A translation unit whose source names the core type is compiled
// twice, with KGEN_CORE_PASS=1 (AIC) and =2 (AIV), and the launcher runs each core on its pass
// (bench_bridge/sim/compiler.py, kgen_sim/launch.h). Any other translation unit (host code, kernels that
// never name the core type) is compiled once and reads the core type at run time, through this reference
// to the variable the launcher sets for each core.
//
// @api g_coreType
#pragma once
#include "kgen_sim/launch.h"

#if defined(KGEN_CORE_PASS)
constexpr int32_t g_coreType = KGEN_CORE_PASS;  // internal linkage: no symbol shared between the passes
#else
inline thread_local int32_t& g_coreType = ::kgen::tls_core_type;
#endif
