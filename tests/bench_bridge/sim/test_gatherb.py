"""Gatherb with GatherRepeatParams (the documented block gather: block j of repeat r comes from src +
offset[8r + j] bytes and lands at (r * dstRepStride + j * dstBlkStride) blocks of dst; dstBlkStride 0
acts as 1), against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import compiler, run

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
using namespace AscendC;
__global__ __aicore__ void k(GM_ADDR x, GM_ADDR off, GM_ADDR y, int reps, int bs, int rs) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, c;
    pipe.InitBuffer(a, 1024);
    pipe.InitBuffer(b, 2048);
    pipe.InitBuffer(c, 64);
    GlobalTensor<uint16_t> gx, gy;
    GlobalTensor<uint32_t> go;
    gx.SetGlobalBuffer((__gm__ uint16_t *)x, 512);
    gy.SetGlobalBuffer((__gm__ uint16_t *)y, 1024);
    go.SetGlobalBuffer((__gm__ uint32_t *)off, 16);
    LocalTensor<uint16_t> src = a.Get<uint16_t>(), dst = b.Get<uint16_t>();
    LocalTensor<uint32_t> o = c.Get<uint32_t>();
    DataCopy(src, gx, 512);
    DataCopy(o, go, 16);
    Duplicate(dst, (uint16_t)0, 1024);
    PipeBarrier<PIPE_ALL>();
    GatherRepeatParams p{(uint8_t)bs, (uint8_t)rs};
    Gatherb<uint16_t>(dst, src, o, (uint8_t)reps, p);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, dst, 1024);
}
int main(int argc, char **argv) {
    uint16_t *x = (uint16_t *)GmAlloc(1024), *y = (uint16_t *)GmAlloc(2048);
    uint32_t *off = (uint32_t *)GmAlloc(64);
    FILE *f = fopen("in.bin", "rb");
    if (fread(x, 2, 512, f) != 512 || fread(off, 4, 16, f) != 16) return 1;
    fclose(f);
    k<<<1, nullptr, nullptr>>>((uint8_t *)x, (uint8_t *)off, (uint8_t *)y, atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
    f = fopen("out.bin", "wb");
    fwrite(y, 2, 1024, f);
    fclose(f);
    return 0;
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    d = tmp_path_factory.mktemp("gatherb")
    (d / "g.cpp").write_text(PROGRAM)
    res = compiler.build([d / "g.cpp"])
    assert res.ok, "\n".join(x.format() for x in res.diagnostics) + res.log[-2000:]
    return res.binary, d


@pytest.mark.parametrize("reps,bs,rs", [(2, 1, 8), (2, 2, 16), (2, 0, 20), (0, 1, 8)])
def test_gatherb_moves_whole_blocks(prog, reps, bs, rs):
    exe, d = prog
    rng = np.random.default_rng(reps + bs + rs)
    x = rng.integers(0, 65535, 512).astype(np.uint16)
    blocks = rng.permutation(32)[:16].astype(np.uint32)
    np.concatenate([x.view(np.uint8), (blocks * 32).view(np.uint8)]).tofile(d / "in.bin")
    r = run(exe, [str(reps), str(bs), str(rs)], cwd=d, timeout=60)
    assert r.returncode == 0 and not [e for e in r.diagnostics if e.severity == "error"], r.stderr
    out = np.fromfile(d / "out.bin", np.uint16).reshape(64, 16)   # 64 blocks of 16 uint16
    want = np.zeros((64, 16), np.uint16)
    for i in range(reps * 8):
        want[(i // 8) * rs + (i % 8) * (bs or 1)] = x.reshape(32, 16)[blocks[i]]
    np.testing.assert_array_equal(out, want)
