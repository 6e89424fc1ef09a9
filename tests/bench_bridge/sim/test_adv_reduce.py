"""High-level reductions (Sum, Mean, ReduceSum/ReduceMean/ReduceMax/ReduceMin pattern forms) against
torch and against the documented addition order re-derived here, with their temporary-size helpers."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_reduce.cpp")


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(out.astype(np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def up(v, a):
    return (v + a - 1) // a * a


def tree_sum_documented(v, dt):
    """The documented order: pairwise tree inside each 256-byte repeat (lane 2k + lane 2k+1, ...), every
    addition rounded to dt; the repeat results are then added in order."""
    per = 256 // np.dtype(dt).itemsize
    acc = None
    for r in range(0, len(v), per):
        lanes = np.zeros(per, dt)
        chunk = v[r:r + per].astype(dt)
        lanes[:len(chunk)] = chunk
        while len(lanes) > 1:
            lanes = (lanes[0::2] + lanes[1::2]).astype(dt)
        acc = lanes[0] if acc is None else dt(acc + lanes[0])
    return acc


def sum_sizes(n, ts):
    rep = -(-n // (256 // ts))
    return up(rep, 32 // ts) * ts


def mean_sizes(n, ts, acc):
    inner = up(n * ts, 32) // ts
    if ts == 2 and acc == 4:
        return up(-(-n // 64), 32) + inner * 4
    return up(-(-n // (256 // ts)), 32)


@pytest.mark.parametrize("case,dt", [("summean_f32", np.float32), ("summean_f16", np.float16)])
@pytest.mark.parametrize("outter,n,tmp", [(1, 37, -1), (5, 200, 0), (3, 300, -1), (2, 8, -1)])
@pytest.mark.parametrize("op", [0, 1, 2])
def test_sum_and_mean(prog, case, dt, outter, n, tmp, op):
    if op == 2 and dt == np.float32:
        pytest.skip("float accumulation of half inputs only")
    ts = np.dtype(dt).itemsize
    inner = up(n * ts, 32) // ts
    rng = np.random.default_rng(outter * n + op)
    x = np.zeros((outter, inner), dt)
    x[:, :n] = rng.uniform(0.1, 2, (outter, n)).astype(dt)
    x[:, n:] = 1000  # padding must be left out
    res = prog.run(case, x=x.ravel(), outter=outter, n=n, op=op, tmp=tmp)
    y = res.out("y", dt)[:outter]
    acc = np.float32 if op == 2 else dt
    exact = [tree_sum_documented(x[i, :n].astype(acc), acc) for i in range(outter)]
    if op == 0:
        np.testing.assert_array_equal(y, np.array(exact, dt))  # the documented order, bit for bit
    else:
        np.testing.assert_array_equal(y, np.array([float(e) / n for e in exact], np.float32).astype(dt))
    ref = torch.from_numpy(x[:, :n].astype(np.float64)).sum(-1).numpy()
    if op:
        ref = ref / n
    if dt == np.float16 and op != 2:  # half accumulation: every step rounds to half (why accType = float exists)
        assert np.allclose(y.astype(np.float64), ref, rtol=5e-3)
    else:
        assert nkb_ok(y, ref, dt).all()
    assert (res.out("y", dt)[outter:] == -7).all()
    mn, mx, nodes, extra = res.out("sizes", np.uint32)
    want = sum_sizes(n, ts) if op == 0 else mean_sizes(n, ts, 4 if op == 2 else ts)
    assert (mn, mx, nodes, extra) == (want, want, 1, 0)


def test_sum_half_accumulates_in_half(prog):
    """4100 ones sum exactly; with the last one replaced by 0.5 the exact sum 4099.5 is not a half (ulp 4 above
    4096), so the documented half accumulation gives 4100 where a float accumulator would keep 4099.5."""
    n = 4100
    x = np.ones(n, np.float16)
    res = prog.run("summean_f16", x=x, outter=1, n=n, op=0, tmp=-1)
    assert res.out("y", np.float16)[0] == tree_sum_documented(x, np.float16) == np.float16(4100)
    x[-1] = np.float16(0.5)
    res = prog.run("summean_f16", x=x, outter=1, n=n, op=0, tmp=-1)
    # last repeat sums to 3.5, 4096 + 3.5 rounds to 4100 in half (ulp 4): the exact sum 4099.5 is not representable
    assert res.out("y", np.float16)[0] == np.float16(4100)


def test_sum_misuse(prog):
    x = np.ones(4096, np.float32)   # a 16-byte InitBuffer is 32 bytes on hardware: too small for 4096 floats
    res = prog.run("summean_f32", x=x, outter=1, n=4096, op=0, tmp=16, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert "adv_reduce.cpp" in res.errors[0].file


def fold_sum(v):
    v = list(np.asarray(v, np.float32))
    k = 1
    while k * 2 <= len(v):
        k *= 2
    for i in range(k, len(v)):
        v[i - k] = np.float32(v[i - k] + v[i])
    w = k
    while w > 1:
        v = [np.float32(v[2 * i] + v[2 * i + 1]) for i in range(w // 2)]
        w //= 2
    return v[0]


def pattern_sizes(op, ra, first, last, ts):
    def kf(n, cond):
        k = 1
        while k * 2 <= n:
            k *= 2
        return k // 2 if (k == n and cond) else k
    if op >= 2:
        if not ra:
            blk, rep = 32 // ts, 256 // ts
            return 0 if last <= blk else (first * blk * ts if last < rep else first * rep * ts)
        return kf(first, first > 1) * up(last * ts, 32)
    if not ra:
        return 0 if last <= 64 else first * kf(last, first > 1) * 4
    return kf(first, first > 1) * up(last, 8) * 4


@pytest.mark.parametrize("case,dt", [("pattern_f32", np.float32), ("pattern_f16", np.float16)])
@pytest.mark.parametrize("op", [0, 1, 2, 3])
@pytest.mark.parametrize("ra", [0, 1])
@pytest.mark.parametrize("first,last,tmp", [(3, 20, -1), (8, 100, -1), (5, 7, 0), (16, 64, -1)])
def test_pattern_reduce(prog, case, dt, op, ra, first, last, tmp):
    if op <= 1 and dt == np.float16:
        pytest.skip("ReduceSum/ReduceMean take float only on dav-2201")
    ts = np.dtype(dt).itemsize
    stride = up(last, 32 // ts)
    rng = np.random.default_rng(first * last + op + 10 * ra)
    x = np.full((first, stride), 999, dt)
    x[:, :last] = (rng.standard_normal((first, last)) * 3).astype(dt)
    res = prog.run(case, x=x.ravel(), first=first, last=last, op=op, ra=ra, tmp=tmp)
    nd = last if ra else first
    y = res.out("y", dt)[:nd]
    v = torch.from_numpy(x[:, :last].astype(np.float64))
    axis = 0 if ra else 1
    if op == 2:
        np.testing.assert_array_equal(y, v.max(axis).values.numpy().astype(dt))
    elif op == 3:
        np.testing.assert_array_equal(y, v.min(axis).values.numpy().astype(dt))
    else:
        cols = x[:, :last].astype(np.float32)
        folded = [fold_sum(cols[:, j] if ra else cols[j]) for j in range(nd)]
        exp = np.array(folded, np.float32)
        if op == 1:
            exp = (exp / np.float32(last if not ra else first)).astype(np.float32)
        np.testing.assert_array_equal(y, exp)  # the documented binary folding, bit for bit
        ref = v.sum(axis).numpy() / ((first if ra else last) if op == 1 else 1)
        assert np.allclose(y, ref, rtol=1e-5, atol=1e-4)
    mn, mx, rmn, rmx = res.out("sizes", np.uint32)
    want = pattern_sizes(op, ra, first, last, ts)
    assert (mn, mx, rmn, rmx) == (want, want, 0, 0)


def test_pattern_reduce_tmp_too_small(prog):
    x = np.zeros(16 * 64, np.float32)
    res = prog.run("pattern_f32", x=x, first=16, last=64, op=2, ra=1, tmp=256, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert f"at least {8 * 256}" in res.errors[0].message  # k = 8 rows of align32(64 * 4)
