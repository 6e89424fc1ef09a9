// kgen host-side emulation -- the high-level API host helpers (temporary sizes, tiling functions),
// included by tiling/tiling_api.h as CANN's umbrella does.
//
// (No public API of its own: see the @api lines of the included headers.)
#pragma once
#include "kgen_sim/adv/host_math_tiling.h"
#include "kgen_sim/adv/host_cumsum_tiling.h"
#include "kgen_sim/adv/host_softmax_tiling.h"
#include "kgen_sim/adv/host_activation_tiling.h"
#include "kgen_sim/adv/host_softmax_ext_tiling.h"
#include "kgen_sim/adv/host_norm_tiling.h"
#include "kgen_sim/adv/host_norm_grad_tiling.h"
#include "kgen_sim/adv/host_welford_tiling.h"
#include "kgen_sim/adv/host_batchnorm_tiling.h"
#include "kgen_sim/adv/host_reduce_tiling.h"
#include "kgen_sim/adv/host_quant_tiling.h"
#include "kgen_sim/adv/host_index_filter_tiling.h"
#include "kgen_sim/adv/host_select_tiling.h"
#include "kgen_sim/adv/host_broadcast_tiling.h"
#include "kgen_sim/adv/host_pad_tiling.h"
#include "kgen_sim/adv/host_transpose_tiling.h"
#include "kgen_sim/adv/host_topk_tiling.h"
#include "kgen_sim/adv/host_sort_tiling.h"
#include "kgen_sim/adv/securec_shim.h"  // memcpy_s / memset_s (CANN host headers expose them)
