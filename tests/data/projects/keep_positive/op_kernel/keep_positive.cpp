// kgen test project: kernel of KeepPositive, one core on the scalar unit: y takes the positive elements
// of x in order, then y's shape [count] goes to the shape argument (1 dimension, then count).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void keep_positive(GM_ADDR x, GM_ADDR y, GM_ADDR shapeOut, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> gx, gy;
    AscendC::GlobalTensor<uint64_t> shape;
    gx.SetGlobalBuffer((__gm__ float*)x, t.n);
    gy.SetGlobalBuffer((__gm__ float*)y);
    shape.SetGlobalBuffer((__gm__ uint64_t*)shapeOut, 2);
    uint64_t count = 0;
    for (uint32_t i = 0; i < t.n; ++i) {
        float v = gx.GetValue(i);
        if (v > 0.0f) gy.SetValue(count++, v);
    }
    shape.SetValue(0, 1);
    shape.SetValue(1, count);
}
