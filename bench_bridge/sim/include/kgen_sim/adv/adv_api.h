// kgen AscendC CPU emulator -- the high-level vector library (being written: issue 10).
#pragma once
#include "kgen_sim/vec_engine.h"
