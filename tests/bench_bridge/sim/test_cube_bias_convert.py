"""DataCopy(LocalTensor<float>, LocalTensor<half>, DataCopyParams) from L1 into the bias table (C2)
converts half to float, with blockLen/srcStride/dstStride in 64-byte units of the half source
(32 elements; local_copy.h's rule). Expected values computed here with numpy."""
from __future__ import annotations

import numpy as np

from bench_bridge.sim import compiler, run

PROGRAM = """#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    TPipe pipe;
    TBuf<TPosition::A1> l1; TBuf<TPosition::C2> bt;
    pipe.InitBuffer(l1, 256 * sizeof(half));
    pipe.InitBuffer(bt, 256 * sizeof(float));
    GlobalTensor<half> gx; gx.SetGlobalBuffer((__gm__ half *)x, 256);
    GlobalTensor<float> gy; gy.SetGlobalBuffer((__gm__ float *)y, 256);
    LocalTensor<half> a = l1.Get<half>();
    LocalTensor<float> b = bt.Get<float>();
    for (int i = 0; i < 256; ++i) a.SetValue(i, gx.GetValue(i));
    for (int i = 0; i < 256; ++i) b.SetValue(i, -7.0f);
    DataCopy(b, a, DataCopyParams(2, 2, 1, 1));       // 2 blocks of 2 units (64 halves), gaps of 1 unit
    for (int i = 0; i < 256; ++i) gy.SetValue(i, b.GetValue(i));
}
int main() {
    half *x = (half *)GmAlloc(256 * sizeof(half)); float *y = (float *)GmAlloc(256 * sizeof(float));
    FILE *f = fopen("x.bin", "rb"); fread(x, sizeof(half), 256, f); fclose(f);
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y);
    f = fopen("y.bin", "wb"); fwrite(y, sizeof(float), 256, f); fclose(f);
    return 0;
}
"""


def test_l1_half_to_bias_table_float(tmp_path):
    src = tmp_path / "bias.cpp"
    src.write_text(PROGRAM)
    res = compiler.build([src])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-2000:]
    x = (np.arange(256, dtype=np.float32) * 0.37 - 20).astype(np.float16)
    x.tofile(tmp_path / "x.bin")
    r = run(res.binary, cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [d for d in r.diagnostics if d.severity == "error"], r.stderr + r.stdout
    y = np.fromfile(tmp_path / "y.bin", np.float32)
    want = np.full(256, -7.0, np.float32)
    epu = 32                                     # halves per 64-byte unit
    for blk in range(2):
        s, d = blk * (2 + 1) * epu, blk * (2 + 1) * epu
        want[d:d + 2 * epu] = x[s:s + 2 * epu].astype(np.float32)
    np.testing.assert_array_equal(y, want)
