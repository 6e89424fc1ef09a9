// kgen host-side emulation -- tiling/tiling_type.h of CANN's operator libraries. Tiling code includes
// it beside tiling/tiling_base.h; the operators the emulator runs use nothing from it beyond what
// tiling_base.h declares, so it only pulls that in.
#pragma once
#include "tiling/tiling_base.h"
