// kgen host-side emulation -- platform/platform_info.h: fe::PlatFormInfos lives in platform_ascendc.h.
//
// Documented behaviour followed: CANN's platform_info.h brings std::map, std::vector and std::string
// into the global namespace (`using std::...` declarations at file scope); host code written against
// it uses the unqualified names (e.g. `vector<int64_t>` inside namespace ops).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "tiling/platform/platform_ascendc.h"

using std::map;
using std::string;
using std::vector;
