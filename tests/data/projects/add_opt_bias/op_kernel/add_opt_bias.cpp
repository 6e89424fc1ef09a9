// kgen test project: kernel of AddOptBias, one core on the scalar unit; a null bias is an absent input.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_opt_bias(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> gx, gb, gy;
    gx.SetGlobalBuffer((__gm__ float*)x, t.n);
    gy.SetGlobalBuffer((__gm__ float*)y, t.n);
    if (bias != nullptr) gb.SetGlobalBuffer((__gm__ float*)bias, t.n);
    for (uint32_t i = 0; i < t.n; ++i) gy.SetValue(i, gx.GetValue(i) + (bias != nullptr ? gb.GetValue(i) : 0.0f));
}
