// kgen test project: kernel of SumDiff (one tile per core).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sum_diff(GM_ADDR a, GM_ADDR b, GM_ADDR s, GM_ADDR d, GM_ADDR workspace, GM_ADDR tiling)
{
    using T = DTYPE_A;
    GET_TILING_DATA(t, tiling);
    uint32_t start = t.perCore * AscendC::GetBlockIdx();
    uint32_t n = t.totalLength - start < t.perCore ? t.totalLength - start : t.perCore;
    AscendC::GlobalTensor<T> aGm, bGm, sGm, dGm;
    aGm.SetGlobalBuffer((__gm__ T*)a + start, n);
    bGm.SetGlobalBuffer((__gm__ T*)b + start, n);
    sGm.SetGlobalBuffer((__gm__ DTYPE_S*)s + start, n);
    dGm.SetGlobalBuffer((__gm__ DTYPE_D*)d + start, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ba, bb, bs, bd;
    pipe.InitBuffer(ba, t.perCore * sizeof(T));
    pipe.InitBuffer(bb, t.perCore * sizeof(T));
    pipe.InitBuffer(bs, t.perCore * sizeof(T));
    pipe.InitBuffer(bd, t.perCore * sizeof(T));
    AscendC::LocalTensor<T> la = ba.Get<T>(), lb = bb.Get<T>(), ls = bs.Get<T>(), ld = bd.Get<T>();
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(la, aGm, cp, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
    AscendC::DataCopyPad(lb, bGm, cp, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(ls, la, lb, n);
    AscendC::Sub(ld, la, lb, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(sGm, ls, cp);
    AscendC::DataCopyPad(dGm, ld, cp);
}
