// InplaceScale kernel: x *= alpha over the whole tensor, written back where it was read.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void inplace_scale(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    constexpr uint32_t TILE = 1024;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, TILE * sizeof(float));
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    for (uint32_t off = 0; off < t.totalLength; off += TILE) {
        uint32_t n = t.totalLength - off < TILE ? t.totalLength - off : TILE;
        LocalTensor<float> v = q.AllocTensor<float>();
        DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(v, xg[off], p, DataCopyPadExtParams<float>{false, 0, 0, 0});
        q.EnQue(v);
        v = q.DeQue<float>();
        Muls(v, v, t.alpha, n);
        DataCopyPad(xg[off], v, p);
        q.FreeTensor(v);
    }
}
