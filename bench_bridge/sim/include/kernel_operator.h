// kgen AscendC CPU emulator -- umbrella header, in place of CANN's kernel_operator.h.
//
// Clean-room: written from AscendC's documented behaviour, not from CANN sources.
// One header per API family, in the order of AscendC's own documentation; the runtime
// layer (checks, diagnostics, trace) is kgen_sim/core.h + diag.h.
#pragma once
#include <cstdint>
#include <cmath>
#include <type_traits>

#include "kgen_sim/core.h"        // qualifiers, constants, per-core context, trace
#include "kgen_sim/diag.h"        // located diagnostics
#include "kgen_sim/half.h"        // half, bfloat16_t
#include "kgen_sim/utils.h"       // float16_t, ToFloat, DivCeil, KERNEL_ERROR
#include "kgen_sim/type_traits.h" // Conditional, Std:: type traits
#include "kgen_sim/sys_sizes.h"   // GetDataBlockSizeInBytes
#include "kgen_sim/tensor.h"      // TPosition, GlobalTensor, LocalTensor
#include "kgen_sim/pipe.h"        // TPipe, TQue, TQueBind, TBuf, TBufPool
#include "kgen_sim/sync.h"        // PipeBarrier, SetFlag/WaitFlag, atomics
#include "kgen_sim/launch.h"      // blocks, SyncAll, kernel launch
#include "kgen_sim/debug.h"       // printf, DumpTensor, ASSERT
#include "kgen_sim/data_copy.h"   // DataCopy
#include "kgen_sim/vec_engine.h"  // repeat parameters, masks
#include "kgen_sim/data_copy_pad.h"   // DataCopyPad and its parameter structs
#include "kgen_sim/vec_binary.h"      // Add, Sub, Mul, Div, Max, Min, And, Or
#include "kgen_sim/vec_unary.h"       // Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu, Not
#include "kgen_sim/vec_scalar.h"      // Adds, Muls, Maxs, Mins, ShiftLeft/Right, LeakyRelu
#include "kgen_sim/vec_compound.h"    // Axpy, MulAddDst, FusedMulAdd, Duplicate
#include "kgen_sim/cast.h"            // Cast and RoundMode
#include "kgen_sim/compare_select.h"  // Compare, CompareScalar, Select
#include "kgen_sim/tensor_operators.h" // dst = src0 + src1, dst = src0 < src1 (whole-tensor operator forms)
#include "kgen_sim/reduce.h"          // ReduceSum/Max/Min, WholeReduce*, BlockReduce*, PairReduceSum, RepeatReduceSum
#include "kgen_sim/gather_transpose.h"  // Gather, Transpose, Brcb, CreateVecIndex
#include "kgen_sim/sort.h"            // Sort32, MrgSort, proposals
#include "kgen_sim/local_alloc.h"     // LocalMemAllocator, InitSocState
#include "kgen_sim/ascendc_utils.h"   // AscendCUtils (sizes, masks, SetOverflow)
#include "kgen_sim/gather_mask.h"     // GatherMask (built-in and user bit patterns), GatherMaskParams
#include "kgen_sim/tiling_kernel.h"   // GET_TILING_DATA, TILING_KEY_IS, GetUserWorkspace
#include "kgen_sim/list_tensor.h"     // ListTensorDesc, TensorDesc (DYNAMIC tensor-list parameters)
#include "kgen_sim/vec_copy.h"        // Copy (UB -> UB vector copy), CopyRepeatParams
#include "kgen_sim/data_cache.h"      // DataCacheCleanAndInvalid (scalar data cache and GM)
#include "kgen_sim/block_sync.h"      // IBSet/IBWait, WaitPreBlock/NotifyNextBlock, scalar GM atomics, GM bypass
#include "kgen_sim/adv/adv_api.h"     // high-level vector library (activations, norms, math, ...)
#include "kgen_sim/cube/local_copy.h"  // DataCopy between cube-unit local memories (L1 -> bias table)
#include "kgen_sim/cube/nd2nz.h"       // DataCopy GM -> L1 with ND -> NZ (Nd2NzParams)
#include "kgen_sim/cube/load_data.h"   // LoadData (2D), LoadDataWithTranspose: L1 -> L0A/L0B
#include "kgen_sim/cube/im2col.h"      // LoadData with LoadData3DParamsV2 (im2col into L0A)
#include "kgen_sim/cube/mmad.h"        // Mmad: the cube unit's matrix multiply-accumulate
#include "kgen_sim/cube/fixpipe.h"     // Fixpipe: L0C -> GM / L1 with quantisation, ReLU, NZ -> ND
#include "kgen_sim/cube/copy_co1.h"    // DataCopy out of L0C (CO1 -> GM / L1) with DataCopyCO12DstParams
#include "kgen_sim/cube/fill.h"        // Fill / InitConstValue of L1, L0A, L0B
#include "kgen_sim/cube/int4_copy.h"   // DataCopy of int4b_t (two elements per byte) between GM and local memory
#include "kgen_sim/cube/cross_core.h"  // CrossCoreSetFlag / CrossCoreWaitFlag between AIC and AIV cores
#include "kgen_sim/cce_intrinsics.h"  // the CCE intrinsic layer: vcadd, get_acc_val, set_vector_mask, set_va_reg_sb, ...

// The build's target architecture as CANN's CMake passes it to host code (examples size their output
// files with `#if ASC_ARCHITECTURES == 2201`): the emulator is a dav-2201 part, like its __NPU_ARCH__.
#ifndef ASC_ARCHITECTURES
#define ASC_ARCHITECTURES 2201
#endif
