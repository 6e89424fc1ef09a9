// kgen test project: kernel of WsTriple.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void ws_triple(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR usr = AscendC::GetUserWorkspace(workspace);
    uint32_t start = t.perCore * AscendC::GetBlockIdx();
    uint32_t n = t.totalLength - start < t.perCore ? t.totalLength - start : t.perCore;
    AscendC::GlobalTensor<float> xGm, yGm, wGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, n);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, n);
    wGm.SetGlobalBuffer((__gm__ float*)usr + start, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> b1, b2;
    pipe.InitBuffer(b1, t.perCore * sizeof(float));
    pipe.InitBuffer(b2, t.perCore * sizeof(float));
    AscendC::LocalTensor<float> v = b1.Get<float>(), w = b2.Get<float>();
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(v, xGm, cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(w, v, 2.0f, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(wGm, w, cp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Duplicate(w, 0.0f, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(w, wGm, cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(v, v, w, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yGm, v, cp);
}
