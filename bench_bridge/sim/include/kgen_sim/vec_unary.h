// kgen AscendC CPU emulator -- vec_unary (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
