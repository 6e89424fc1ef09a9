// kgen test project: kernel of SetDiag: y[i][i] = 1 on one core; nothing else is written.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void set_diag(GM_ADDR yIn, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, t.n * t.n);
    for (uint32_t i = 0; i < t.n; ++i) yGm.SetValue(i * t.n + i, 1.0f);
}
