"""BatchNorm over the first axis of [B, S, H] against torch, with GetBatchNormMaxMinTmpSize /
GetBatchNormNDTilingInfo checked against the documented rules (re-derived here)."""
from __future__ import annotations

import struct

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_batchnorm.cpp")


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(out.astype(np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def up(v, a):
    return (v + a - 1) // a * a


def pad_block(a, dt):
    out = np.zeros(up(a.size, 32 // np.dtype(dt).itemsize), dt)
    out[:a.size] = a
    return out


def bn_sizes(b, sh, ts, basic):
    mv = up(sh * 4, 32)
    per = b * 256 if basic else (b * 64 if ts == 2 else b * 32)
    return 3 * per + 2 * mv, 3 * up(b * sh * 4, 32) + 2 * mv


def bn_fields(b, sh, ts, stack, basic):
    x, blk = b * sh, up(sh, 8)
    mvt = 0 if ts == 4 else 2 * blk
    total = stack // 4
    unit = b * (8 if ts == 4 else 16)
    one = min((total - mvt) // 3 // unit * unit, x)
    shc = one // b
    if basic and shc % 64:
        shc = shc // 64 * 64
        one = shc * b
    tail = x % one
    return [b, sh, 0, blk, total, one, mvt, mvt + one, mvt + 2 * one, x // one, tail, (x - tail) // b, tail // b,
            sh - tail // b, one, shc, struct.unpack("<I", struct.pack("<f", np.float32(1) / np.float32(b)))[0], 4, shc // 8,
            sh // 16]


@pytest.mark.parametrize("case,dt", [("bn_f32", np.float32), ("bn_f16", np.float16)])
@pytest.mark.parametrize("b,s,h,tmp,basic,inplace", [(8, 4, 16, -1, 1, 0), (3, 2, 16, 0, 0, 0), (5, 4, 32, -1, 0, 1)])
def test_batchnorm_matches_torch(prog, case, dt, b, s, h, tmp, basic, inplace):
    rng = np.random.default_rng(b * s * h)
    x = (rng.standard_normal((b, s * h)) * 2 + 1).astype(dt)
    g = rng.uniform(0.5, 1.5, b).astype(dt)
    be = rng.uniform(-1, 1, b).astype(dt)
    res = prog.run(case, x=x.ravel(), g=pad_block(g, dt), be=pad_block(be, dt), b=b, s=s, h=h, tmp=tmp, basic=basic,
                   inplace=inplace, eps=np.array([1e-5], np.float32))
    xv = torch.from_numpy(x.astype(np.float64))
    mean, var = xv.mean(0), xv.var(0, unbiased=False)
    ref = (torch.from_numpy(g.astype(np.float64))[:, None] * (xv - mean) / torch.sqrt(var + float(dt(1e-5))) +
           torch.from_numpy(be.astype(np.float64))[:, None]).numpy()
    assert nkb_ok(res.out("y", dt).reshape(b, s * h), ref, dt).all()
    assert nkb_ok(res.out("mean", dt), mean.numpy(), dt).all()
    assert nkb_ok(res.out("var", dt), var.numpy(), dt).all()
    assert not res.warnings


@pytest.mark.parametrize("case,ts", [("bn_f32", 4), ("bn_f16", 2)])
@pytest.mark.parametrize("b,s,h,stack,basic,ok", [(8, 4, 16, None, 1, 1), (3, 2, 16, None, 0, 1), (6, 8, 32, 20000, 0, 1),
                                                  (8, 4, 32, 30000, 1, 1), (3, 4, 16, None, 1, 0)])
def test_batchnorm_sizes_and_tiling(prog, case, ts, b, s, h, stack, basic, ok):
    res = prog.run(case, b=b, s=s, h=h, tmp=-1, basic=basic, hostonly=1, **({} if stack is None else {"stack": stack}))
    got = res.out("tiling", np.uint32)
    assert list(got[42:]) == [ok, ok]
    if not ok:
        return
    mn, mx = bn_sizes(b, s * h, ts, basic)
    assert list(got[40:42]) == [mn, mx]
    exp = bn_fields(b, s * h, ts, stack or mn, basic)
    np.testing.assert_array_equal(got[:20], exp)
    np.testing.assert_array_equal(got[20:40], exp)


def test_batchnorm_misuse(prog):
    x = np.zeros(8 * 64, np.float32)
    res = prog.run("bn_f32", x=x, g=np.ones(8, np.float32), be=np.zeros(8, np.float32), b=8, s=4, h=16, tmp=256, stack=4096,
                   basic=0, inplace=0, eps=np.array([1e-5], np.float32), expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
