// kgen AscendC CPU emulator -- the high-level vector library (issue 10), one header per family.
//
// Kernel side only; the host-side tiling and temporary-size helpers are in adv/host_tiling.h,
// reached through tiling/tiling_api.h.
//
// (No public API of its own: see the @api lines of the family headers.)
#pragma once
#include "kgen_sim/vec_engine.h"
#include "kgen_sim/adv/math.h"         // Sin, Cos, Tan, Acos, ..., Erf, Ceil/Floor/Round/Trunc/Frac, Sign, Log*, Exp
#include "kgen_sim/adv/math_binary.h"  // Power, Fmod, Xor, ClampMax/ClampMin, Axpy
#include "kgen_sim/adv/activation.h"   // Sigmoid, Silu, Swish, Gelu, FasterGelu, SwiGLU, GeGLU
#include "kgen_sim/adv/softmax.h"      // SoftMax, SimpleSoftMax (+ SoftMaxTiling, SoftMaxShapeInfo)
#include "kgen_sim/adv/data_format.h"      // DataFormat
#include "kgen_sim/adv/log_softmax.h"      // LogSoftMax (+ LogSoftMaxTiling)
#include "kgen_sim/adv/softmax_flashv2.h"  // SoftmaxFlashV2 (+ kernel-side SoftMaxFlashV2TilingFunc)
#include "kgen_sim/adv/softmax_flashv3.h"     // SoftmaxFlashV3 (+ SoftMaxParams)
#include "kgen_sim/adv/softmax_grad.h"     // SoftmaxGrad, SoftmaxGradFront
#include "kgen_sim/adv/layernorm.h"        // LayerNorm ([B, S, H] and [A, R] forms; tiling structs in norm_types.h)
#include "kgen_sim/adv/layernorm_grad.h"   // LayerNormGrad, LayerNormGradBeta (tiling structs in layernorm_grad_types.h)
#include "kgen_sim/adv/rmsnorm.h"          // RmsNorm
#include "kgen_sim/adv/normalize.h"        // Normalize (LayerNorm with a given mean/variance)
#include "kgen_sim/adv/deepnorm.h"         // DeepNorm
#include "kgen_sim/adv/batchnorm.h"        // BatchNorm
#include "kgen_sim/adv/welford.h"          // WelfordUpdate, WelfordFinalize
#include "kgen_sim/adv/reduce_adv.h"       // Sum, Mean, ReduceSum/ReduceMean/ReduceMax/ReduceMin<T, Pattern::Reduce::AR/RA>
#include "kgen_sim/adv/quant.h"            // AscendQuant, AscendDequant, AscendAntiQuant
#include "kgen_sim/adv/index_filter.h"     // Arange, DropOut
#include "kgen_sim/adv/select_bytes.h"     // Select with a byte mask (SelectWithBytesMaskShapeInfo)
#include "kgen_sim/adv/broadcast.h"        // Broadcast
#include "kgen_sim/adv/init_global_memory.h"  // Fill / InitGlobalMemory (set Global Memory to a value)
#include "kgen_sim/adv/cumsum.h"           // CumSum (+ CumSumConfig, CumSumInfo)
#include "kgen_sim/adv/ascend950_only.h"   // BitwiseAnd, Clamp, Fma, LogicalAnd, Rint, Where: compile error here
#include "kgen_sim/adv/philox.h"           // PhiloxRandom (Ascend 950 only: api-unsupported here)
#include "kgen_sim/adv/pad.h"              // Pad, UnPad (+ PadParams, UnPadParams, PadTiling, UnPadTiling)
#include "kgen_sim/adv/confusion_transpose.h"  // Transpose / ConfusionTranspose with TransposeType (+ ConfusionTransposeTiling)
#include "kgen_sim/adv/transdata.h"            // TransData NCDHW <-> NDC1HWC0 / FRACTAL_Z_3D (+ TransDataConfig, Layout)
#include "kgen_sim/adv/topk.h"             // TopK (+ TopkTiling, TopKInfo, TopKMode)
#include "kgen_sim/adv/sort_adv.h"          // the Ascend 950 SortConfig forms of Sort (api-unsupported here)
