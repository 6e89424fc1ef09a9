// kgen host-side emulation -- tiling/tiling_api.h: the host tiling umbrella (tiling data macros,
// platform queries, graph types) and the high-level API tiling helpers (softmax, matmul, ...).
//
// @api tiling_api
#pragma once
#include "graph/types.h"
#include "graph/utils/type_utils.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "kgen_sim/adv/host_tiling.h"  // high-level API host helpers (softmax tiling, temp sizes): kgen_sim/adv/
#include "kgen_sim/matmul/host_tiling.h"  // Matmul tiling: MatmulApiTiling, MultiCoreMatmulTiling, optiling::TCubeTiling
