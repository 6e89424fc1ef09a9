// kgen AscendC CPU emulator -- data_copy_pad (being written).
#pragma once
#include "kgen_sim/vec_engine.h"
