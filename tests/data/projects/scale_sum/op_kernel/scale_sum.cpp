// kgen test project: kernel of ScaleSum on one core, element by element on the scalar unit.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale_sum(GM_ADDR x, GM_ADDR y, GM_ADDR s, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> xGm, yGm, sGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.total);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.total);
    sGm.SetGlobalBuffer((__gm__ float*)s, 1);
    float sum = 0.0f;
    for (uint32_t i = 0; i < t.total; ++i) {
        float v = xGm.GetValue(i);
        yGm.SetValue(i, v * t.scale);
        sum += v;
    }
    sGm.SetValue(0, sum);
}
