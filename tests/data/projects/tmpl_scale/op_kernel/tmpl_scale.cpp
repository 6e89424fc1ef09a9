// TmplScale kernel (kgen team test project): y = x * factor; branches on the tiling key the chosen
// tiling class set (1: small-input class, 2: large-input class).
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Scale(GM_ADDR x, GM_ADDR y, const TmplScaleTilingData& t) {
    uint32_t start = t.perCore * GetBlockIdx();
    if (start >= t.total) return;
    uint32_t n = t.total - start < t.perCore ? t.total - start : t.perCore;
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, n);
    yg.SetGlobalBuffer((__gm__ float*)y + start, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.perCore * sizeof(float));
    LocalTensor<float> v = buf.Get<float>();
    DataCopyPad(v, xg, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(v, v, t.factor, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(yg, v, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
}

extern "C" __global__ __aicore__ void tmpl_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(1)) {
        Scale(x, y, t);
    } else if (TILING_KEY_IS(2)) {
        Scale(x, y, t);
    }
}
