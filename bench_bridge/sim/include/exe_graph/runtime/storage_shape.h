// kgen host-side emulation -- forwarding header: gert::StorageShape lives in shape.h.
#pragma once
#include "exe_graph/runtime/shape.h"
