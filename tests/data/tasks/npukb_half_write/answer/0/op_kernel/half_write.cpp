// HalfWrite kernel: copies the first half of x into y and never touches the second half of y
// (kgen team test task: the binding zero-fills y before the kernel, so the rest reads 0).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void half_write(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.totalLength / 2;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, (n * sizeof(float) + 31) / 32 * 32);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yg.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    LocalTensor<float> v = q.AllocTensor<float>();
    DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    DataCopyPad(v, xg, p, DataCopyPadExtParams<float>{false, 0, 0, 0});
    q.EnQue(v);
    v = q.DeQue<float>();
    DataCopyPad(yg, v, p);
    q.FreeTensor(v);
}
