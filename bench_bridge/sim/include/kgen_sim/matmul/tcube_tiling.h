// kgen AscendC CPU emulator -- TCubeTiling, the Matmul tiling structure the host fills and the kernel reads.
//
// Documented rules followed (TCubeTiling structure page, Matmul tiling class):
//  * 50 int32 fields in this order: usedCoreNum, M, N, Ka, Kb, singleCoreM/N/K, baseM/N/K, depthA1,
//    depthB1, stepM, stepN, isBias, transLength, iterateOrder, shareMode, shareL1Size, shareL0CSize,
//    shareUbSize, batchM, batchN, singleBatchM, singleBatchN, stepKa, stepKb, depthAL1CacheUB,
//    depthBL1CacheUB, dbL0A, dbL0B, dbL0C, the A/B/C layout infos (B S N G D / B S N G D / B S1 N G S2),
//    BatchNum, mxTypePara.
//  * Kernel side: a plain struct, at global scope and as AscendC::tiling::TCubeTiling. Host side:
//    optiling::TCubeTiling, a tiling-data class with the same fields (tiling/tiling_api.h), so its
//    SaveToBuffer bytes are this struct and TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, f) nests it.
//
// @api TCubeTiling
#pragma once
#include <cstdint>

#define KGEN_TCUBE_FIELDS(X)                                                                              \
    X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN)     \
    X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) X(shareMode) \
    X(shareL1Size) X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) X(singleBatchN)      \
    X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB)   \
    X(ALayoutInfoS) X(ALayoutInfoN) X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS)        \
    X(BLayoutInfoN) X(BLayoutInfoG) X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN)       \
    X(CLayoutInfoG) X(CLayoutInfoS2) X(BatchNum) X(mxTypePara)

#define KGEN_TCUBE_MEMBER(f) int32_t f = 0;
struct TCubeTiling {
    KGEN_TCUBE_FIELDS(KGEN_TCUBE_MEMBER)
};
#undef KGEN_TCUBE_MEMBER
static_assert(sizeof(TCubeTiling) == 50 * 4, "TCubeTiling: 50 int32 fields");

namespace AscendC {
namespace tiling {
using TCubeTiling = ::TCubeTiling;
}  // namespace tiling
}  // namespace AscendC
