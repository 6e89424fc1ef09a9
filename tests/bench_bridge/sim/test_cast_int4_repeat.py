"""Cast half -> int4b_t in the mask/repeat form (kgen_sim/cast.h): packed 4-bit results, two per byte, low
nibble first, saturated to [-8, 7], with a 32-byte block holding 64 of them; each repeat converts 128 halves
(8 source blocks) into 2 destination blocks. Checked against numpy (ceil then saturate), with a contiguous
layout ({1, 1, 2, 8}, as the official cast example) and with a gap of 2 blocks between destination repeats."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import compiler, run

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, int dstRep) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 512 * 2);
    pipe.InitBuffer(b, 512);
    GlobalTensor<half> gx;
    GlobalTensor<int8_t> gy;
    gx.SetGlobalBuffer((__gm__ half *)x, 512);
    gy.SetGlobalBuffer((__gm__ int8_t *)y, 512);
    LocalTensor<half> s = a.Get<half>();
    LocalTensor<int8_t> d = b.Get<int8_t>();
    DataCopy(s, gx, 512);
    Duplicate(d.ReinterpretCast<int16_t>(), (int16_t)0, 256);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<int4b_t> d4 = d.ReinterpretCast<int4b_t>();
    uint64_t mask = 128;
    Cast<int4b_t, half>(d4, s, RoundMode::CAST_CEIL, mask, 4, {1, 1, (uint8_t)dstRep, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, d, 512);
}
int main(int argc, char **argv) {
    half *x = (half *)GmAlloc(1024);
    int8_t *y = (int8_t *)GmAlloc(512);
    FILE *f = fopen("in.bin", "rb");
    if (fread(x, 2, 512, f) != 512) return 1;
    fclose(f);
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)y, atoi(argv[1]));
    f = fopen("out.bin", "wb");
    fwrite(y, 1, 512, f);
    fclose(f);
    return 0;
}
"""


def unpack(b: np.ndarray) -> np.ndarray:
    lo = (b.astype(np.int16) << 12).astype(np.int16) >> 12
    hi = (b.astype(np.int16) << 8).astype(np.int16) >> 12
    return np.stack([lo, hi], -1).reshape(-1)


@pytest.mark.parametrize("dst_rep", [2, 4])
def test_half_to_int4_repeat_form(tmp_path, dst_rep):
    x = np.random.default_rng(dst_rep).uniform(-10, 10, 512).astype(np.float16)
    x.tofile(tmp_path / "in.bin")
    (tmp_path / "c.cpp").write_text(PROGRAM)
    res = compiler.build([tmp_path / "c.cpp"])
    assert res.ok, "\n".join(e.format() for e in res.diagnostics) + res.log[-2000:]
    r = run(res.binary, [str(dst_rep)], cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and not [e for e in r.diagnostics if e.severity == "error"], r.stderr
    got = unpack(np.fromfile(tmp_path / "out.bin", np.int8).view(np.uint8)).reshape(-1, 64)   # 64 per block
    want = np.clip(np.ceil(x.astype(np.float64)), -8, 7).astype(np.int16).reshape(4, 2, 64)  # 4 repeats x 2 blocks
    for r_ in range(4):
        np.testing.assert_array_equal(got[r_ * dst_rep: r_ * dst_rep + 2], want[r_])
    if dst_rep == 4:                                   # the gap blocks are untouched
        for r_ in range(4):
            assert (got[r_ * 4 + 2: r_ * 4 + 4] == 0).all()
