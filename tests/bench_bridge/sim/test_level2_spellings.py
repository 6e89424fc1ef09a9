"""API spellings and forms NPUKernelBench level-2 answers use, in a team-written kernel: a ``TBuf`` and a
``TQue`` passed by value (CANN declares them copyable; a copy is a handle to the same buffers:
ApplyFusedEmaAdam), the untyped ``DeQue()`` returning a ``TBufHandle`` (RmsNorm), ``SelectWithBytesMask`` (the pre-CANN 8 name of the byte-mask ``Select``:
SelectReduceMaxDSubExpReduceSumDRealDiv), ``BroadCast`` (the name ``Broadcast`` forwards to:
AddSigmoidMulReduceSumD) the internal ``DataCopyGM2UBImpl`` / ``DataCopyUB2GMImpl`` (GeGluV2) and ``InitOutput`` of bfloat16
(FeedsRepeat). The
expected values are computed here with numpy."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import run
from tests.bench_bridge.sim.harness import build_inline

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
// by value, as the published kernels pass them
__aicore__ inline float FillAndRead(TBuf<TPosition::VECCALC> buf, TQue<TPosition::VECIN, 1> que, float v) {
    LocalTensor<float> a = que.AllocTensor<float>();
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, v, 8);
    Duplicate(a, v + 1.0f, 8);
    float r = t.GetValue(3) + a.GetValue(0);
    que.FreeTensor(a);
    return r;
}
// x: 64 floats, m: 64 bytes (0/1); y: 256 floats
__global__ __aicore__ void spell_k(GM_ADDR x, GM_ADDR m, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bm, bs0, bs1, bb, bt, bp;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(bx, 64 * 4);
    pipe.InitBuffer(bm, 64);
    pipe.InitBuffer(bs0, 64 * 4);
    pipe.InitBuffer(bs1, 64 * 4);
    pipe.InitBuffer(bb, 64 * 4);
    pipe.InitBuffer(bt, 4096);
    pipe.InitBuffer(bp, 32);
    pipe.InitBuffer(q, 1, 32);
    GlobalTensor<float> gx, gy;
    GlobalTensor<uint8_t> gm;
    gx.SetGlobalBuffer((__gm__ float *)x, 64);
    gm.SetGlobalBuffer((__gm__ uint8_t *)m, 64);
    gy.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<float> tx = bx.Get<float>(), s0 = bs0.Get<float>(), s1 = bs1.Get<float>(), tb = bb.Get<float>();
    LocalTensor<uint8_t> tm = bm.Get<uint8_t>(), tmp = bt.Get<uint8_t>();
    DataCopyGM2UBImpl((__ubuf__ float *)tx.GetPhyAddr(), (__gm__ float *)x, {1, 8, 0, 0});
    DataCopy(tm, gm, 64);
    PipeBarrier<PIPE_ALL>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = 1;
    info.srcLastAxis = 64;
    info.maskLastAxis = 64;
    float zero = 0.0f;
    SelectWithBytesMask(s0, tx, zero, tm, tmp, info);   // mask 0 -> tensor, else 0
    SelectWithBytesMask(s1, zero, tx, tm, tmp, info);   // mask 0 -> 0, else tensor
    const uint32_t dst[2] = {8, 8}, src[2] = {8, 1};
    BroadCast<float, 2, 1>(tb, tx, dst, src);           // x[0..7] as a column, each value 8 times
    float r = FillAndRead(bp, q, 2.5f);
    float r2 = FillAndRead(bp, q, 4.0f);                // the copy freed the queue's buffer
    LocalTensor<float> again = q.AllocTensor<float>();  // so the original can allocate it again
    q.EnQue(again);
    TBufHandle h = q.DeQue();                           // untyped DeQue (RmsNorm): the handle, tensor kept
    gy.SetValue(194, h != nullptr ? 1.0f : 0.0f);
    q.FreeTensor(again);
    PipeBarrier<PIPE_ALL>();
    DataCopyUB2GMImpl((__gm__ float *)y, (__ubuf__ float *)s0.GetPhyAddr(), {1, 8, 0, 0});
    DataCopy(gy[64], s1, 64);
    DataCopy(gy[128], tb, 64);
    PipeBarrier<PIPE_ALL>();
    gy.SetValue(192, r);
    gy.SetValue(193, r2);
    GlobalTensor<bfloat16_t> gb;                         // InitOutput of a bfloat16 tensor (FeedsRepeat)
    gb.SetGlobalBuffer((__gm__ bfloat16_t *)(y + 200 * 4), 16);
    InitOutput<bfloat16_t>(gb, 16, bfloat16_t(1.0f));
}
int main() {
    float *x = (float *)GmAlloc(256), *y = (float *)GmAlloc(1024);
    uint8_t *m = (uint8_t *)GmAlloc(64);
    FILE *f = fopen("x.bin", "rb");
    if (!f || fread(x, 4, 64, f) != 64) return 9;
    fclose(f);
    f = fopen("m.bin", "rb");
    if (!f || fread(m, 1, 64, f) != 64) return 9;
    fclose(f);
    for (int i = 0; i < 256; ++i) y[i] = -1.0f;
    spell_k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)m, (uint8_t *)y);
    f = fopen("y.bin", "wb");
    fwrite(y, 4, 256, f);
    fclose(f);
    return 0;
}
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    d = tmp_path_factory.mktemp("spell")
    binary = build_inline(d, "spellings.cpp", PROGRAM)
    rng = np.random.default_rng(7)
    x = rng.standard_normal(64).astype(np.float32)
    m = (rng.random(64) < 0.5).astype(np.uint8)
    x.tofile(d / "x.bin")
    m.tofile(d / "m.bin")
    r = run(binary, [], cwd=d, timeout=60)
    assert r.returncode == 0 and not [g for g in r.diagnostics if g.severity in ("error", "warning")], r.stderr
    return x, m, np.fromfile(d / "y.bin", np.float32)


def test_select_with_bytes_mask_both_forms(result):
    x, m, y = result
    np.testing.assert_array_equal(y[:64], np.where(m == 0, x, 0))      # through DataCopyGM2UBImpl / UB2GMImpl
    np.testing.assert_array_equal(y[64:128], np.where(m == 0, 0, x))


def test_broadcast_spelling(result):
    x, _, y = result
    np.testing.assert_array_equal(y[128:192].reshape(8, 8), np.repeat(x[:8, None], 8, axis=1))


def test_tbuf_and_tque_passed_by_value_share_their_buffers(result):
    _, _, y = result
    assert y[192] == 2.5 + 3.5 and y[193] == 4.0 + 5.0
    assert y[194] == 1.0                                  # TBufHandle DeQue() returned a handle
    assert (y[195:200] == -1).all() and (y[208:] == -1).all()


def test_init_output_fills_bfloat16(result):
    _, _, y = result
    assert (y[200:208].view(np.uint16) == 0x3F80).all()    # bfloat16 1.0
