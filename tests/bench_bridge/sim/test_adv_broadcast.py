"""Broadcast (dav-2201 forms) against numpy.broadcast_to / torch.expand, with GetBroadCastMaxMinTmpSize
checked against the documented rule (re-derived here)."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_broadcast.cpp")
TYPES = {"brc_f32": np.float32, "brc_f16": np.float16, "brc_i8": np.int8, "brc_i16": np.int16, "brc_i32": np.int32,
         "brc_bf16": np.uint16}  # bf16 handled as its 16-bit patterns: a broadcast copies bits


def up(v, a):
    return (v + a - 1) // a * a


def brc_sizes(ns, nd, m, n, axis1, ts):
    cast = 0
    if ts == 1:
        cast = (up(ns, 16) + up(nd, 16)) * 2
        ts = 2
    if ns in (nd, 1):
        return (cast + 32, cast + 32) if cast else (0, 0)
    if not axis1:
        return 32 + cast, 32 + cast
    e = 32 // ts
    mn, mx = e * e * ts + cast, up(m, 8) * e * ts + cast
    if n % e:
        mn += e * up(n, e) * ts
        mx += m * up(n, e) * ts
    return mn, mx


@pytest.mark.parametrize("case", list(TYPES))
@pytest.mark.parametrize("mode,m,n,tmp", [(0, 4, 16, -1), (1, 5, 32, -1), (1, 3, 64, 0), (2, 6, 32, -1), (2, 3, 20, -1),
                                          (2, 9, 8, 0)])
def test_broadcast(prog, case, mode, m, n, tmp):
    dt = TYPES[case]
    ts = np.dtype(dt).itemsize
    if mode == 1 and (n * ts) % 32:
        pytest.skip("axis 0 needs 32-byte rows")
    ns = 1 if mode == 0 else (n if mode == 1 else m)
    rng = np.random.default_rng(m * n + mode)
    if dt == np.uint16:  # bfloat16 bit patterns of random normal values
        x = torch.randn(ns, generator=torch.Generator().manual_seed(ns)).to(torch.bfloat16).view(torch.int16).numpy()
        x = x.view(np.uint16)
    elif np.dtype(dt).kind == "i":
        x = rng.integers(-100, 100, ns).astype(dt)
    else:
        x = rng.standard_normal(ns).astype(dt)
    res = prog.run(case, x=x, m=m, n=n, mode=mode, tmp=tmp)
    y = res.out("y", dt)[:m * n].reshape(m, n)
    src = torch.from_numpy(x.astype(np.int64) if np.dtype(dt).kind in "iu" else x.astype(np.float32))
    view = src.reshape(1, 1) if mode == 0 else (src.reshape(1, n) if mode == 1 else src.reshape(m, 1))
    ref = view.expand(m, n).numpy().astype(dt)
    np.testing.assert_array_equal(y, ref)
    mn, mx = res.out("sizes", np.uint32)
    assert (mn, mx) == brc_sizes(ns, m * n, 1 if mode == 0 else m, m * n if mode == 0 else n, mode == 2, ts)


@pytest.mark.parametrize("tmp", [-1, 0])
def test_broadcast_under_its_implementation_name(prog, tmp):
    # AscendC::BroadCast<T, 2, 1>: the same API as Broadcast (a per-row scale widened to every column)
    m, n = 6, 40
    x = np.random.default_rng(3).standard_normal(m).astype(np.float32)
    res = prog.run("brc_f32", x=x, m=m, n=n, mode=3, tmp=tmp)
    np.testing.assert_array_equal(res.out("y", np.float32)[: m * n].reshape(m, n), np.repeat(x[:, None], n, axis=1))


def test_broadcast_misuse(prog):
    x = np.zeros(8, np.float32)
    res = prog.run("brc_f32", x=x, m=8, n=64, mode=2, tmp=64, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
