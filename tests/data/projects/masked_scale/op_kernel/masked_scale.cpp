// kgen test project: kernel of MaskedScale, element by element on the scalar unit (one piece per core).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void masked_scale(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t start = t.perCore * AscendC::GetBlockIdx();
    uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
    AscendC::GlobalTensor<float> xGm, yGm;
    AscendC::GlobalTensor<uint8_t> mGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, n);
    mGm.SetGlobalBuffer((__gm__ uint8_t*)mask + start, n);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, bm;
    pipe.InitBuffer(bx, t.perCore * sizeof(float));
    pipe.InitBuffer(bm, t.perCore);
    AscendC::LocalTensor<float> lx = bx.Get<float>();
    AscendC::LocalTensor<uint8_t> lm = bm.Get<uint8_t>();
    AscendC::DataCopyPad(lx, xGm, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                         AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
    AscendC::DataCopyPad(lm, mGm, AscendC::DataCopyExtParams{1, n, 0, 0, 0}, AscendC::DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < n; ++i) lx.SetValue(i, lm.GetValue(i) ? lx.GetValue(i) * t.scale : 0.0f);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yGm, lx, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
}
