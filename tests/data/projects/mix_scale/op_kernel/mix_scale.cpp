// kgen test project: kernel of MixScale, written as bisheng-only code: the cube (AIC) and vector (AIV)
// halves are specialisations of a member template whose core type defaults to g_coreType, and a factor
// comes from `if constexpr (g_coreType == ...)`. Both factors are 1 only in the right pass.
#include "kernel_operator.h"
#include "../op_host/mix_scale_tiling.h"

using namespace AscendC;

__aicore__ inline float PassFactor() {
    if constexpr (g_coreType == AscendC::AIC) {
        return 0.5f;        // the AIC's sum is doubled below: 1 overall in the AIC pass
    } else {
        return 1.0f;
    }
}

struct MixScaleKernel {
    MixScaleTiling t;
    GM_ADDR x;
    GM_ADDR w;
    GM_ADDR y;
    GM_ADDR slots;
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ void Run();
};

template <>
__aicore__ void MixScaleKernel::Run<AscendC::AIC>() {
    GlobalTensor<float> wg, sg;
    wg.SetGlobalBuffer((__gm__ float*)w, t.weights);
    sg.SetGlobalBuffer((__gm__ float*)slots + GetBlockIdx() * 8, 8);
    float s = 0.f;
    for (uint32_t i = 0; i < t.weights; ++i) s += wg.GetValue(i);
    sg.SetValue(0, 2.0f * s * PassFactor());
    CrossCoreSetFlag<2, PIPE_FIX>(3);
}

template <>
__aicore__ void MixScaleKernel::Run<AscendC::AIV>() {
    CrossCoreWaitFlag(3);
    const uint32_t start = t.perAiv * GetBlockIdx();
    if (start >= t.totalLength) return;
    const uint32_t n = t.totalLength - start < t.perAiv ? t.totalLength - start : t.perAiv;
    GlobalTensor<float> xg, yg, sg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, n);
    yg.SetGlobalBuffer((__gm__ float*)y + start, n);
    sg.SetGlobalBuffer((__gm__ float*)slots + get_block_idx() * 8, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perAiv * sizeof(float));
    LocalTensor<float> v = buf.Get<float>();
    DataCopyExtParams cp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    DataCopyPad(v, xg, cp, DataCopyPadExtParams<float>{false, 0, 0, 0});
    PipeBarrier<PIPE_ALL>();
    Muls(v, v, sg.GetValue(0) * PassFactor(), n);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(yg, v, cp);
}

extern "C" __global__ __aicore__ void mix_scale(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    REGISTER_TILING_DEFAULT(MixScaleTiling);
    GET_TILING_DATA_WITH_STRUCT(MixScaleTiling, t, tiling);
    MixScaleKernel k{t, x, w, y, GetUserWorkspace(workspace)};
    k.Run();
}
