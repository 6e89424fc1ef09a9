// kgen AscendC CPU emulator -- the header AscendC documents for ListTensorDesc / TensorDesc.
#pragma once
#include "kernel_operator.h"
#include "kgen_sim/list_tensor.h"
