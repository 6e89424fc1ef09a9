// kgen AscendC CPU emulator -- lib/matmul_intf.h: the Matmul high-level API for kernels, and
// REGIST_MATMUL_OBJ.
//
// Documented rules followed (REGIST_MATMUL_OBJ page, Matmul usage notes):
//  * REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm) registers one Matmul whose tiling Init gives
//    later; REGIST_MATMUL_OBJ(&pipe, ws, mm1, &tiling1, mm2, &tiling2, ...) registers up to 4
//    objects, each with its TCubeTiling (a null tiling pointer leaves that object for Init).
//  * In a vector (MIX) kernel the Matmul computes on the cube core paired with each vector core:
//    the kernel runs as KERNEL_TYPE_MIX_AIC_1_2 (numBlocks AIC + 2 * numBlocks AIV; see
//    kgen_sim/launch.h), and the AIC cores leave the kernel here (their work is the Matmul's). With
//    ASCENDC_CUBE_ONLY defined before this header the kernel runs on numBlocks AIC cores only; in a kernel
//    declared __mix__ it keeps its AIV cores, and the AIC computes the Matmul where the kernel calls it
//    (the kernel splits the work with ASCEND_IS_AIC / ASCEND_IS_AIV).
// Emulator: the Matmul computes directly from the GM / Unified Buffer operands (kgen_sim/matmul/).
//
// @api REGIST_MATMUL_OBJ matmul_intf
#pragma once
#include "kernel_operator.h"
#include "kgen_sim/matmul/matmul_impl.h"

#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

namespace kgen {
namespace mm {

inline void regist(AscendC::TPipe*) {}
template <class MM>
inline void regist(AscendC::TPipe*, MM&) {}
template <class MM, class T, class... R>
inline void regist(AscendC::TPipe* pipe, MM& mm, T* tiling, R&&... rest) {
    if (tiling) mm.Init(reinterpret_cast<const TCubeTiling*>(tiling), pipe);
    regist(pipe, rest...);
}
template <class... A>
inline void regist_matmul(bool cube_only, AscendC::TPipe* pipe, void* workspace, A&&... objs) {
    static_assert(sizeof...(A) <= 8, "REGIST_MATMUL_OBJ: at most 4 Matmul objects");
    (void)workspace;
    kgen::declare_kernel_kind(cube_only ? KernelKind::Aic : KernelKind::Mix12);
    if (!cube_only && (tls_launch_kind == KernelKind::Mix12 || tls_launch_kind == KernelKind::Mix11)) {
        if (::g_coreType == AscendC::AIC) throw KernelReturn{};
    }
    regist(pipe, objs...);
}

}  // namespace mm
}  // namespace kgen

using AscendC::GetSysWorkSpacePtr;
using AscendC::SetSysWorkspace;

#ifdef ASCENDC_CUBE_ONLY
static constexpr bool kgen_matmul_cube_only = true;
#else
static constexpr bool kgen_matmul_cube_only = false;
#endif

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ::kgen::mm::regist_matmul(kgen_matmul_cube_only, tpipe, reinterpret_cast<void*>(workspace), __VA_ARGS__)

// `matmul` is another name of the AscendC namespace (matmul::Matmul, matmul::GetBlockIdx, and under
// `using namespace matmul;` every AscendC name, SyncAll included).
namespace matmul = AscendC;
