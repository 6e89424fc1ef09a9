// kgen test project: kernel of KeyedAct: one branch per tiling key.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void keyed_act(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(t, tiling);
    uint32_t n = t.totalLength;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (n + 7) / 8 * 8 * sizeof(float));
    AscendC::LocalTensor<float> v = buf.Get<float>();
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(v, xGm, cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    if (TILING_KEY_IS(1)) {
        AscendC::Exp(v, v, n);
    } else if (TILING_KEY_IS(2)) {
        AscendC::Abs(v, v, n);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yGm, v, cp);
}
