// kgen test project: kernel of ScaleShift (one UB tile per core; the test keeps shapes small).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale_shift(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t start = t.perCore * AscendC::GetBlockIdx();
    if (start >= t.totalLength) return;
    uint32_t n = t.totalLength - start < t.perCore ? t.totalLength - start : t.perCore;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, n);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(v, xGm, cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(v, v, t.alpha, n);
    AscendC::Adds(v, v, static_cast<float>(t.shift), n);
    if (t.relu) AscendC::Relu(v, v, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yGm, v, cp);
}
