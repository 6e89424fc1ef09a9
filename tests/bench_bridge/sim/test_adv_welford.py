"""WelfordUpdate / WelfordFinalize: a reduce axis split into blocks, fed block by block, must give the
mean and population variance torch computes over the whole axis; the update follows the documented
float instruction order bit for bit; the size helpers follow the documented rules."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_welford.cpp")


def welford_update_documented(x, rn, ab, comp):
    """Documented order in float: d = x - m; m' = m + d * nRec; M' = M + d * (x - m'); past comp: copy."""
    m = np.zeros(ab, np.float32)
    M = np.zeros(ab, np.float32)
    for i in range(rn):
        r = np.float32(1.0) / np.float32(i + 1)
        xi = x[i].astype(np.float32)
        c = comp if i + 1 == rn else ab
        d = (xi - m).astype(np.float32)
        m1 = (m + (d * r).astype(np.float32)).astype(np.float32)
        M1 = (M + (d * (xi - m1).astype(np.float32)).astype(np.float32)).astype(np.float32)
        m = np.concatenate([m1[:c], m[c:]])
        M = np.concatenate([M1[:c], M[c:]])
    return m, M


@pytest.mark.parametrize("case,dt", [("welford_f32", np.float32), ("welford_f16", np.float16)])
@pytest.mark.parametrize("rn,ab,comp,inplace,tmp,usecounts", [(4, 64, 64, 0, -1, 0), (5, 32, 32, 0, 0, 0),
                                                              (3, 64, 40, 1, -1, 0), (6, 128, 100, 1, -1, 1)])
def test_welford_matches_torch(prog, case, dt, rn, ab, comp, inplace, tmp, usecounts):
    rng = np.random.default_rng(rn * ab + comp)
    x = (rng.standard_normal((rn, ab)) * 3 + 2).astype(dt)
    counts = np.array([rn if j < comp else rn - 1 for j in range(ab)], np.int32)
    mv = np.full(4 * ab, -7, np.float32)
    res = prog.run(case, x=x.ravel(), mv=mv, counts=counts, rn=rn, ab=ab, comp=comp, inplace=inplace, tmp=tmp,
                   usecounts=usecounts)
    out = res.out("mv", np.float32)
    m_exp, M_exp = welford_update_documented(x, rn, ab, comp)
    np.testing.assert_array_equal(out[:ab], m_exp)       # bit for bit: the documented float order
    np.testing.assert_array_equal(out[ab:2 * ab], M_exp)
    valid = np.concatenate([x[:rn - 1].astype(np.float64).ravel(), x[rn - 1, :comp].astype(np.float64)])
    t = torch.from_numpy(valid)
    mean, var = res.out("res", np.float32)[:2]
    assert abs(mean - t.mean().item()) <= 1e-5 * max(1, abs(t.mean().item()))
    assert abs(var - t.var(unbiased=False).item()) <= 1e-4 * t.var(unbiased=False).item()


@pytest.mark.parametrize("case,ts", [("welford_f32", 4), ("welford_f16", 2)])
@pytest.mark.parametrize("rn,ab", [(1, 64), (4, 256), (3, 40)])
def test_welford_sizes(prog, case, ts, rn, ab):
    got = list(prog.run(case, rn=rn, ab=ab, hostonly=1).out("sizes", np.uint32))
    umin = (3 if ts == 2 else 2) * 256
    fmin = 1024
    fmax = fmin if ab <= 64 else (128 + 2 * ab) * 4
    assert got == [umin, -(-rn * ab // 64) * umin, fmin, fmax]


def test_welford_misuse(prog):
    x = np.zeros(2 * 64, np.float32)
    res = prog.run("welford_f32", x=x, mv=np.zeros(256, np.float32), counts=np.ones(64, np.int32), rn=2, ab=64, comp=64,
                   inplace=0, tmp=256, usecounts=0, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    res = prog.run("welford_f32", x=x, mv=np.zeros(256, np.float32), counts=np.ones(64, np.int32), rn=2, ab=64, comp=0,
                   inplace=0, tmp=-1, usecounts=0, expect_ok=False)
    assert res.errors and res.errors[0].code == "welford-param"
