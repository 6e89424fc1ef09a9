// kgen host-side emulation -- forwarding header: InferDataTypeContext lives in infer_shape_context.h.
#pragma once
#include "exe_graph/runtime/infer_shape_context.h"
