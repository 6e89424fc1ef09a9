// kgen AscendC CPU emulator -- the template arguments of the Matmul API: CubeFormat, MatmulType,
// MatmulConfig and its presets (CFG_NORM, CFG_MDL, ...), the Get*Config helpers.
//
// Documented rules followed (Matmul template parameter pages):
//  * MatmulType<TPosition, CubeFormat, T, isTrans = false, LayoutMode = NONE, ibShare = false> names
//    where an operand lives (GM, VECIN/VECOUT/TSCM in the Unified Buffer or L1, CO1), its format (ND,
//    NZ, ...), its element type and whether it is transposed.
//  * The fifth Matmul argument is a MatmulConfig (const reference): CFG_NORM (the default), CFG_MDL,
//    CFG_IBSHARE_NORM, MM_CFG_BB, or one built by GetNormalConfig/GetMDLConfig/GetSpecialMDLConfig/
//    GetBasicConfig/GetIBShareNormConfig/GetMMConfig. The emulator computes the same result for every
//    configuration (the configurations choose the hardware schedule, not the numbers).
//
// @api DEFAULT_C0_SIZE CubeFormat LayoutMode MatmulType MatmulConfig CFG_NORM CFG_MDL CFG_IBSHARE_NORM MM_CFG_BB
// @api GetNormalConfig GetMDLConfig GetSpecialMDLConfig GetBasicConfig GetIBShareNormConfig GetMMConfig
// @api GetMmDstType MatmulPolicy TrianUpperMatmulPolicy TrianLowerMatmulPolicy NBuffer33MatmulPolicy SparseMatmulType
#pragma once
#include <cstdint>

#include "kgen_sim/tensor.h"

#ifndef KGEN_CUBE_FORMAT_DEFINED
#define KGEN_CUBE_FORMAT_DEFINED 1
/// Data layouts of the cube path (ND: row-major; NZ: 16 x C0 fractals, column of fractals first).
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
#endif
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

namespace AscendC {

/// Bytes of one C0 block of the cube's fractal layouts (32 B: 16 half, 8 float, 32 int8).
inline constexpr uint32_t DEFAULT_C0_SIZE = 32;

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
enum class IterateMode : uint8_t { ITERATE_MODE_NORMAL = 0b1, ITERATE_MODE_ALL = 0b10, ITERATE_MODE_BATCH = 0b100,
                                   ITERATE_MODE_N_BATCH = 0b1000, ITERATE_MODE_DEFAULT = 0b11111111 };
enum class BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

/// A 4:2 structured-sparse B operand (SparseMatmulType page, Atlas A2/A3): B holds the densified matrix (two
/// values of every four along K) and SetSparseIndex gives the index matrix saying where they sit.
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
    constexpr static TPosition indexPosition = INDEX_POSITION;
};

struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0, baseMN = 0, singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false, hasAntiQuantOffset = false;
    bool doIBShareNorm = false, doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true, enableGetTensorC = true, enableSetOrgShape = true, enableSetBias = true;
    bool enableSetTail = true, enableQuantVector = true, enableSetDefineData = true;
    uint8_t iterateMode = static_cast<uint8_t>(IterateMode::ITERATE_MODE_DEFAULT);
    bool enableReuse = true, enableUBReuse = false, enableL1CacheUB = false, intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false, isBiasBatch = true, enableStaticPadZeros = false, isPartialOutput = false;
    bool enableMixDualMaster = false, isA2B2Shared = false, isEnableChannelSplit = false, enableKdimReorderLoad = false;
    bool isCO1Shared = false, enableL1BankConflictOptimise = false;
    uint32_t sharedCO1BufferSize = 0;
    BatchOutMode batchOutMode = BatchOutMode::SINGLE_BATCH;
    MatmulConfigMode kgenMode = MatmulConfigMode::CONFIG_NORM;  // emulator: which preset built it
};

/// Builders of the documented presets; their arguments tune the hardware schedule only.
template <typename... A>
constexpr MatmulConfig GetNormalConfig(A...) { return MatmulConfig{}; }
template <typename... A>
constexpr MatmulConfig GetMDLConfig(A...) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.kgenMode = MatmulConfigMode::CONFIG_MDL;
    return c;
}
template <typename... A>
constexpr MatmulConfig GetSpecialMDLConfig(A...) {
    MatmulConfig c = GetMDLConfig();
    c.doSpecialMDL = true;
    c.kgenMode = MatmulConfigMode::CONFIG_SPECIALMDL;
    return c;
}
template <typename... A>
constexpr MatmulConfig GetIBShareNormConfig(A...) {
    MatmulConfig c{};
    c.doIBShareNorm = true;
    c.kgenMode = MatmulConfigMode::CONFIG_IBSHARE;
    return c;
}
constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, bool intrinsicsLimit = false,
                                      bool batchLoop = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c{};
    c.doBasicBlock = true;
    c.basicM = basicM; c.basicN = basicN; c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit; c.isNBatch = batchLoop; c.batchMode = bmmMode;
    return c;
}
/// Shape and tiling parameters GetMMConfig may take (recorded, not used by the emulator).
struct MatmulShapeParams { uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0, basicM = 0, basicN = 0, basicK = 0; };
struct MatmulQuantParams { bool isPerTensor = false; bool hasAntiQuantOffset = false; };
struct MatmulBatchParams { bool isBatch = false; BatchMode batchMode = BatchMode::NONE; bool isBiasBatch = true; };
/// The function switches of GetMMConfig, in the documented order (isPartialOutput is the tenth).
struct MatmulFuncParams {
    bool intrinsicsLimit = false, enVecND2NZ = false, enableDoubleCache = false, enableL1CacheUB = false;
    uint32_t doMTE2Preload = 0;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableReuse = true, enableUBReuse = false, isPartialOutput = false, isA2B2Shared = false, isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false, enableL1BankConflictOptimise = false;
};
namespace kgen_mm {
constexpr void apply(MatmulConfig& c, const MatmulShapeParams& p) {
    c.singleCoreM = p.singleCoreM; c.singleCoreN = p.singleCoreN; c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM; c.basicN = p.basicN; c.basicK = p.basicK;
}
constexpr void apply(MatmulConfig& c, const MatmulQuantParams& p) { c.isPerTensor = p.isPerTensor; c.hasAntiQuantOffset = p.hasAntiQuantOffset; }
constexpr void apply(MatmulConfig& c, const MatmulBatchParams& p) { c.isNBatch = p.isBatch; c.batchMode = p.batchMode; c.isBiasBatch = p.isBiasBatch; }
constexpr void apply(MatmulConfig& c, const MatmulFuncParams& p) {
    c.intrinsicsCheck = p.intrinsicsLimit; c.enVecND2NZ = p.enVecND2NZ; c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB; c.doMTE2Preload = p.doMTE2Preload; c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType; c.enableReuse = p.enableReuse; c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput; c.isA2B2Shared = p.isA2B2Shared; c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad; c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
}
template <typename T>
constexpr void apply(MatmulConfig&, const T&) {}
}  // namespace kgen_mm
/// A preset of the given mode with the parameter structs applied (batch: isBiasBatch, ...).
template <MatmulConfigMode MODE, typename... A>
constexpr MatmulConfig GetMMConfig(A... params) {
    MatmulConfig c = MODE == MatmulConfigMode::CONFIG_MDL ? GetMDLConfig()
                   : MODE == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                   : MODE == MatmulConfigMode::CONFIG_IBSHARE ? GetIBShareNormConfig()
                   : GetNormalConfig();
    (kgen_mm::apply(c, params), ...);
    return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_NORM_DEFAULT = CFG_NORM;

/// Callback hooks a Matmul may be given (accepted; the emulator does not call them).
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};

/// The L0C (CO1) accumulator type of a Matmul input type: float for half / bfloat16 / float, int32 for int8
/// and int4b_t.
template <typename T>
struct GetMmDstType { using Type = float; };
template <>
struct GetMmDstType<int8_t> { using Type = int32_t; };
template <>
struct GetMmDstType<int4b_t> { using Type = int32_t; };

namespace Impl {
/// Queue depth the Matmul library gives its CO1 / L1 queues.
constexpr int32_t QUEUE_DEPTH = 1;
namespace Detail {
/// The MatmulPolicy template argument (the Matmul's seventh): which built-in strategy computes C. The
/// emulator computes the same numbers for the default and NBuffer33 strategies; the triangular ones
/// leave out the base blocks of the other triangle (kgen_sim/matmul/matmul_impl.h).
template <const auto& MM_CFG, typename... Types>
struct MatmulPolicy {};
template <const auto& MM_CFG, typename... Types>
struct NBuffer33MatmulPolicy : MatmulPolicy<MM_CFG, Types...> {};
template <const auto& MM_CFG, typename... Types>
struct TrianUpperMatmulPolicy : MatmulPolicy<MM_CFG, Types...> {};
template <const auto& MM_CFG, typename... Types>
struct TrianLowerMatmulPolicy : MatmulPolicy<MM_CFG, Types...> {};
}  // namespace Detail
}  // namespace Impl

}  // namespace AscendC

// Kernels name the configuration types and builders without a namespace, as CANN's headers allow.
using AscendC::BatchMode;
using AscendC::CFG_IBSHARE_NORM;
using AscendC::CFG_MDL;
using AscendC::CFG_NORM;
using AscendC::GetBasicConfig;
using AscendC::GetIBShareNormConfig;
using AscendC::GetMDLConfig;
using AscendC::GetMMConfig;
using AscendC::GetNormalConfig;
using AscendC::GetSpecialMDLConfig;
using AscendC::IterateOrder;
using AscendC::MatmulBatchParams;
using AscendC::MatmulConfig;
using AscendC::MatmulConfigMode;
using AscendC::MatmulFuncParams;
using AscendC::MatmulQuantParams;
using AscendC::MatmulShapeParams;
using AscendC::MM_CFG_BB;
using AscendC::ScheduleType;
