// kgen test project: kernel of RowSum: ReduceSum per row, the sums gathered in UB, one copy out.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t first = t.rowsPerCore * AscendC::GetBlockIdx();
    if (first >= t.rows) return;
    uint32_t rows = t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first) * t.cols, static_cast<uint64_t>(rows) * t.cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + first, rows);
    uint32_t padded = (t.cols + 63) / 64 * 64;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> rowBuf, workBuf, sumBuf, outBuf;
    pipe.InitBuffer(rowBuf, padded * sizeof(float));
    pipe.InitBuffer(workBuf, padded * sizeof(float));
    pipe.InitBuffer(sumBuf, 32);
    pipe.InitBuffer(outBuf, (rows + 7) / 8 * 8 * sizeof(float));
    AscendC::LocalTensor<float> row = rowBuf.Get<float>();
    AscendC::LocalTensor<float> work = workBuf.Get<float>();
    AscendC::LocalTensor<float> sum = sumBuf.Get<float>();
    AscendC::LocalTensor<float> out = outBuf.Get<float>();
    AscendC::DataCopyExtParams cp{1, static_cast<uint32_t>(t.cols * sizeof(float)), 0, 0, 0};
    for (uint32_t i = 0; i < rows; ++i) {
        AscendC::DataCopyPad(row, xGm[static_cast<uint64_t>(i) * t.cols], cp, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::ReduceSum(sum, row, work, static_cast<int32_t>(t.cols));
        AscendC::PipeBarrier<PIPE_ALL>();
        out.SetValue(i, sum.GetValue(0));
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yGm, out, AscendC::DataCopyExtParams{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0});
}
