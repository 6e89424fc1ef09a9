// InplaceAxpy kernel: y += alpha * x over the whole tensor, written back into y (kgen team test task).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void inplace_axpy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    constexpr uint32_t TILE = 1024;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    pipe.InitBuffer(qx, 1, TILE * sizeof(float));
    pipe.InitBuffer(qy, 1, TILE * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yg.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    for (uint32_t off = 0; off < t.totalLength; off += TILE) {
        uint32_t n = t.totalLength - off < TILE ? t.totalLength - off : TILE;
        LocalTensor<float> vx = qx.AllocTensor<float>();
        LocalTensor<float> vy = qy.AllocTensor<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(vx, xg[off], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
        DataCopyPad(vy, yg[off], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
        qx.EnQue(vx);
        qy.EnQue(vy);
        vx = qx.DeQue<float>();
        vy = qy.DeQue<float>();
        Axpy(vy, vx, t.alpha, n);
        DataCopyPad(yg[off], vy, p);
        qx.FreeTensor(vx);
        qy.FreeTensor(vy);
    }
}
