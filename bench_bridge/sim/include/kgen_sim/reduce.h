// kgen AscendC CPU emulator -- reduce (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
