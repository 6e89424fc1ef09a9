// kgen host-side emulation -- forwarding header: fe::PlatFormInfos lives in platform_ascendc.h.
#pragma once
#include "tiling/platform/platform_ascendc.h"
