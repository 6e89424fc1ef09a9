// kgen AscendC CPU emulator -- vec_scalar (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
