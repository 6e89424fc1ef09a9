// kgen AscendC CPU emulator -- sort (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
