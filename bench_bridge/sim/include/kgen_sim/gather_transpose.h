// kgen AscendC CPU emulator -- gather_transpose (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
