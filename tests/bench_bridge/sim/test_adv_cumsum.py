"""CumSum against torch.cumsum (first axis = dim 0, last axis = dim 1), both algorithms, half and
float, the lastRow output, and GetCumSumMaxMinTmpSize's sizes (the emulator's rule, re-derived here);
misuse (buffer below the minimum, inner not 32-byte aligned) is a located error."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_cumsum.cpp")
CASE = {np.float32: "cumsum_f32", np.float16: "cumsum_f16"}


def tmp_rule(m, n, ts, last):
    a16 = lambda v: (v + 15) // 16 * 16  # noqa: E731
    k = 2 if ts == 2 else 1
    return a16(m) * a16(n) * 4 * k if last else n * 4 * k


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("cfg", [0, 1, 2, 3])
@pytest.mark.parametrize("m,n", [(32, 160), (5, 16), (17, 48)])
def test_cumsum(prog, dt, cfg, m, n):
    x = np.random.default_rng(m + n + cfg).uniform(-10, 10, (m, n)).astype(dt)
    res = prog.run(CASE[dt], x=x, m=m, n=n, cfg=cfg)
    y = res.out("y", dt).reshape(m, n)
    last = res.out("last", dt)
    ref = torch.cumsum(torch.from_numpy(x.astype(np.float32)), dim=0 if cfg < 2 else 1).numpy()
    tol = dict(rtol=1e-5, atol=1e-4) if dt == np.float32 else dict(rtol=1e-3, atol=0.05)
    np.testing.assert_allclose(y.astype(np.float32), ref, **tol)
    np.testing.assert_array_equal(last, y[-1])
    mn, mx = res.out("sizes", np.uint32)
    assert mn == mx == tmp_rule(m, n, np.dtype(dt).itemsize, cfg >= 2)
    assert not res.errors


def test_linebyline_float_is_sequential(prog):
    """LINEBYLINE adds the rows one after the other in float: bit-exact with a sequential float32 sum."""
    m, n = 9, 8
    x = np.random.default_rng(3).standard_normal((m, n)).astype(np.float32)
    y = prog.run("cumsum_f32", x=x, m=m, n=n, cfg=0).out("y", np.float32).reshape(m, n)
    ref = np.zeros_like(x)
    acc = np.zeros(n, np.float32)
    for i in range(m):
        acc = (acc + x[i]).astype(np.float32)
        ref[i] = acc
    np.testing.assert_array_equal(y, ref)


def test_own_buffer(prog):
    x = np.ones((4, 8), np.float32)
    y = prog.run("cumsum_f32", x=x, m=4, n=8, cfg=2, tmp=-1).out("y", np.float32).reshape(4, 8)
    np.testing.assert_array_equal(y, np.tile(np.arange(1, 9, dtype=np.float32), (4, 1)))


def test_tmp_too_small(prog):
    x = np.ones((64, 64), np.float32)   # a 16-byte InitBuffer is 32 bytes on hardware: too small here
    res = prog.run("cumsum_f32", x=x, m=64, n=64, cfg=0, tmp=16, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"


def test_inner_not_aligned(prog):
    x = np.ones((4, 6), np.float32)
    res = prog.run("cumsum_f32", x=x, m=4, n=6, cfg=0, expect_ok=False)
    assert res.errors and res.errors[0].code == "cumsum-shape"
