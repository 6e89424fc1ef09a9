// kgen test project: kernel of MulIntScalar, one core on the scalar unit.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void mul_int_scalar(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<int32_t> gx, gy;
    AscendC::GlobalTensor<int64_t> gs;
    gx.SetGlobalBuffer((__gm__ int32_t*)x, t.n);
    gs.SetGlobalBuffer((__gm__ int64_t*)s, 1);
    gy.SetGlobalBuffer((__gm__ int32_t*)y, t.n);
    const int64_t k = gs.GetValue(0);
    for (uint32_t i = 0; i < t.n; ++i) gy.SetValue(i, static_cast<int32_t>(gx.GetValue(i) * k));
}
