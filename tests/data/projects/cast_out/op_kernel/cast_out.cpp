// kgen test project: kernel of CastOut, one core, element by element on the scalar unit: float16 by
// rounding to nearest, int32 by truncation toward zero (what x.to(dtype) does in PyTorch).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void cast_out(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> gx;
    AscendC::GlobalTensor<DTYPE_Y> gy;
    gx.SetGlobalBuffer((__gm__ float*)x, t.n);
    gy.SetGlobalBuffer((__gm__ DTYPE_Y*)y, t.n);
    for (uint32_t i = 0; i < t.n; ++i) gy.SetValue(i, static_cast<DTYPE_Y>(gx.GetValue(i)));
}
