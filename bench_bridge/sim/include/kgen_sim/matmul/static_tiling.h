// kgen AscendC CPU emulator -- constant (compile-time) Matmul tiling: MatmulApiStaticTiling and
// GetMatmulApiTiling<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>(mmCFG, l1Size).
//
// Documented rules followed (GetMatmulApiTiling, Matmul template parameters, REGIST_MATMUL_OBJ pages):
//  * MatmulApiStaticTiling holds the TCubeTiling fields (-1: not constant, the runtime tiling's value is
//    used) and the MatmulConfig (cfg); it can be the fifth Matmul template argument in place of a
//    MatmulConfig.
//  * Partial constant tiling: the MatmulConfig fixes only basicM/N/K (singleCoreM/N/K 0) -> base block and
//    isBias constant, everything else from the TCubeTiling that REGIST_MATMUL_OBJ / Init still pass.
//  * Full constant tiling: singleCoreM/N/K and basicM/N/K all fixed -> M = singleCoreM, N = singleCoreN,
//    Ka = Kb = singleCoreK as well, and REGIST_MATMUL_OBJ may pass a null tiling; the kernel then gives the
//    real shape with SetOrgShape / SetTail.
//  * The L1 schedule fields (stepM/N/Ka/Kb, depthA1/B1, dbL0A/B/C, iterateOrder) are filled by kgen's own
//    rule (kgen_sim/matmul/tiling_algo.h step 4; dbL0C = 1, iterateOrder 0); they choose the hardware
//    schedule, not the numbers, and the emulator computes the same C for any of them.
//
// @api MatmulApiStaticTiling GetMatmulApiTiling
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/matmul/matmul_types.h"
#include "kgen_sim/matmul/tcube_tiling.h"

namespace AscendC {

#define KGEN_STATIC_MEMBER(f) int32_t f = -1;
struct MatmulApiStaticTiling {
    KGEN_TCUBE_FIELDS(KGEN_STATIC_MEMBER)
    MatmulConfig cfg = CFG_NORM;
};
#undef KGEN_STATIC_MEMBER

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = 524288) {
    MatmulApiStaticTiling t{};
    t.cfg = mmCFG;
    if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) return t;  // nothing constant
    const int32_t sa = int32_t(sizeof(typename A_TYPE::T)), sb = int32_t(sizeof(typename B_TYPE::T));
    const int32_t bm = int32_t(mmCFG.basicM), bn = int32_t(mmCFG.basicN), bk = int32_t(mmCFG.basicK);
    t.baseM = bm; t.baseN = bn; t.baseK = bk;
    t.isBias = mmCFG.enableSetBias ? 1 : 0;
    t.dbL0A = 2 * bm * bk * sa <= 65536 ? 2 : 1;
    t.dbL0B = 2 * bn * bk * sb <= 65536 ? 2 : 1;
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) return t;  // partial
    t.M = t.singleCoreM = int32_t(mmCFG.singleCoreM);
    t.N = t.singleCoreN = int32_t(mmCFG.singleCoreN);
    t.Ka = t.Kb = t.singleCoreK = int32_t(mmCFG.singleCoreK);
    const int32_t ablk = bm * bk * sa, bblk = bn * bk * sb;
    const int32_t kIters = (t.singleCoreK + bk - 1) / bk;
    const int32_t bias = t.isBias ? bn * int32_t(sizeof(typename BIAS_TYPE::T)) : 0;
    int32_t step = (l1Size - bias) / (2 * (ablk + bblk));
    step = step < kIters ? step : kIters;
    int32_t depth = 2 * step;
    if (step < 1) { step = 1; depth = 1; }
    t.stepM = t.stepN = 1;
    t.stepKa = t.stepKb = step;
    t.depthA1 = t.depthB1 = depth;
    t.iterateOrder = 0;
    t.dbL0C = 1;
    t.transLength = 0;
    t.shareMode = 0;
    t.shareL1Size = depth * (ablk + bblk) + bias;
    t.shareL0CSize = bm * bn * 4;
    t.shareUbSize = 0;
    return t;
}

}  // namespace AscendC

namespace kgen {
namespace mm {

/// The MatmulConfig of a Matmul's fifth template argument (a MatmulConfig or a MatmulApiStaticTiling).
template <class CFG>
constexpr const AscendC::MatmulConfig& config_of(const CFG& c) {
    if constexpr (std::is_same_v<std::remove_cv_t<CFG>, AscendC::MatmulApiStaticTiling>) return c.cfg;
    else return c;
}

/// Overlay the constant fields of a static tiling on `t` (runtime values where the constant is -1).
template <class CFG>
inline void apply_static(const CFG& c, TCubeTiling& t) {
    if constexpr (std::is_same_v<std::remove_cv_t<CFG>, AscendC::MatmulApiStaticTiling>) {
#define KGEN_STATIC_APPLY(f) if (c.f != -1) t.f = c.f;
        KGEN_TCUBE_FIELDS(KGEN_STATIC_APPLY)
#undef KGEN_STATIC_APPLY
    }
}

/// True when the static tiling gives every size a Matmul needs (REGIST_MATMUL_OBJ may pass no tiling).
template <class CFG>
constexpr bool static_complete(const CFG& c) {
    if constexpr (std::is_same_v<std::remove_cv_t<CFG>, AscendC::MatmulApiStaticTiling>)
        return c.M > 0 && c.N > 0 && c.Ka > 0 && c.singleCoreM > 0 && c.singleCoreN > 0 && c.singleCoreK > 0 && c.baseM > 0 &&
               c.baseN > 0 && c.baseK > 0;
    else return false;
}

}  // namespace mm
}  // namespace kgen

using AscendC::GetMatmulApiTiling;
using AscendC::MatmulApiStaticTiling;
