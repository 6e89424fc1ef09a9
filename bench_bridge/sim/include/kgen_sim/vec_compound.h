// kgen AscendC CPU emulator -- vec_compound (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
