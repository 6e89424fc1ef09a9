// kgen host-side emulation -- forwarding header: gert::TilingParseContext lives in tiling_context.h.
#pragma once
#include "exe_graph/runtime/tiling_context.h"
