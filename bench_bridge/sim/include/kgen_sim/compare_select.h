// kgen AscendC CPU emulator -- compare_select (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
