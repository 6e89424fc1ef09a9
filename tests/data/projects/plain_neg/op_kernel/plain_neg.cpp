// kgen test project: kernel of PlainNeg.
#include "kernel_operator.h"
#include "../op_host/plain_neg_tiling.h"

extern "C" __global__ __aicore__ void plain_neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(PlainNegTiling);
    GET_TILING_DATA_WITH_STRUCT(PlainNegTiling, t, tiling);
    uint32_t start = t.perCore * AscendC::GetBlockIdx();
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
    AscendC::Muls(v, v, t.scale, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yGm, v, cp);
}
