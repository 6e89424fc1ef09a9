// kgen test project: kernel of AddRowBias: the bias row is loaded once per core and added to each row.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_row_bias(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t cols = t.shape[1];
    uint32_t blk = AscendC::GetBlockIdx();
    uint32_t rows = blk + 1 == AscendC::GetBlockNum() ? t.split.lastRows : t.split.rowsPerCore;
    uint64_t base = static_cast<uint64_t>(blk) * t.split.rowsPerCore * cols;
    AscendC::GlobalTensor<float> xGm, bGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, static_cast<uint64_t>(rows) * cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + base, static_cast<uint64_t>(rows) * cols);
    bGm.SetGlobalBuffer((__gm__ float*)bias, cols);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bBuf, rBuf;
    uint32_t padded = (cols + 7) / 8 * 8;
    pipe.InitBuffer(bBuf, padded * sizeof(float));
    pipe.InitBuffer(rBuf, padded * sizeof(float));
    AscendC::LocalTensor<float> b = bBuf.Get<float>();
    AscendC::LocalTensor<float> r = rBuf.Get<float>();
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(b, bGm, cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
    for (uint32_t i = 0; i < rows; ++i) {
        AscendC::DataCopyPad(r, xGm[static_cast<uint64_t>(i) * cols], cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(r, r, b, cols);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(i) * cols], r, cp);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
