// kgen AscendC CPU emulator -- cast (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
