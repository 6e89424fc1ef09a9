"""LayerNormGrad and LayerNormGradBeta against torch.autograd on LayerNorm and a numpy model of the
documented formulas; their host helpers against the documented sizes and splits (hand-computed)."""
from __future__ import annotations

import struct

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_norm_grad.cpp")


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(np.asarray(out, np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def fbits(v):
    return struct.unpack("<I", struct.pack("<f", np.float32(v)))[0]


def formula(dy, x, var, mean, gamma, eps, oh):
    """The documented LayerNormGrad formula, reducing over the first `oh` columns."""
    dy, x, var, mean, gamma = (np.asarray(a, np.float64) for a in (dy, x, var, mean, gamma))
    xl = dy * gamma
    xm = x - mean[:, None]
    r = (var + eps) ** -0.5
    pd_var = (-0.5 * xl * xm * r[:, None] ** 3)[:, :oh].sum(1)
    pd_mean = (-xl * r[:, None])[:, :oh].sum(1) + pd_var / oh * (-2.0 * xm)[:, :oh].sum(1)
    pd_x = xl * r[:, None] + pd_var[:, None] * 2.0 / oh * xm + pd_mean[:, None] / oh
    return pd_x, xm * r[:, None]


def inputs(rows, h, oh, dt, seed):
    rng = np.random.default_rng(seed)
    x = np.zeros((rows, h)); dy = np.zeros((rows, h)); gamma = np.zeros(h)
    x[:, :oh] = rng.standard_normal((rows, oh)) * 2 + 1
    dy[:, :oh] = rng.standard_normal((rows, oh))
    gamma[:oh] = rng.uniform(0.5, 1.5, oh)
    x, dy, gamma = x.astype(dt), dy.astype(dt), gamma.astype(dt)
    xr = x[:, :oh].astype(np.float64)
    mean = xr.mean(1).astype(dt)   # what LayerNorm hands over (biased variance, T-typed)
    var = xr.var(1).astype(dt)
    return x, dy, gamma, mean, var


def pad(v):
    """B * S values padded to whole 32-byte blocks (the test kernel moves them with DataCopy)."""
    epb = 32 // v.dtype.itemsize
    return np.concatenate([v, np.zeros(-len(v) % epb, v.dtype)])


def run_grad(prog, dt, b, s, h, oh=0, seed=0, eps=1e-5, expect_ok=True, **kw):
    case = "lng_f32" if dt == np.float32 else "lng_f16"
    oh_ = oh or h
    x, dy, gamma, mean, var = inputs(b * s, h, oh_, dt, seed)
    res = prog.run(case, dy=dy.ravel(), x=x.ravel(), var=pad(var), mean=pad(mean), gamma=gamma, b=b, s=s, h=h, oh=oh_,
                   eps=int(round(eps * 1e6)), expect_ok=expect_ok, **kw)
    return res, x, dy, gamma, mean, var


@pytest.mark.parametrize("b,s,h", [(2, 8, 64), (1, 5, 40), (3, 4, 128)])
def test_layernorm_grad_matches_torch_autograd_float(prog, b, s, h):
    res, x, dy, gamma, mean, var = run_grad(prog, np.float32, b, s, h, seed=b * s * h)
    xt = torch.from_numpy(x.astype(np.float64)).requires_grad_()
    gt = torch.from_numpy(gamma.astype(np.float64)).requires_grad_()
    bt = torch.zeros(h, dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.layer_norm(xt, (h,), gt, bt, eps=1e-5)
    y.backward(torch.from_numpy(dy.astype(np.float64)))
    pdx = res.out("pdx", np.float32).reshape(-1, h)
    ok = nkb_ok(pdx, xt.grad.numpy(), np.float32)
    assert ok.all(), (pdx[~ok][:4], xt.grad.numpy()[~ok][:4])
    xhat = (x.astype(np.float64) - mean.astype(np.float64)[:, None]) / np.sqrt(var.astype(np.float64)[:, None] + 1e-5)
    assert nkb_ok(res.out("res", np.float32).reshape(-1, h), xhat, np.float32).all()
    # chain into LayerNormGradBeta: pd_gamma / pd_beta are torch's gamma.grad / beta.grad
    rb = prog.run("lngb_f32", res=res.out("res", np.float32), dy=dy.ravel(), b=b, s=s, h=h)
    assert nkb_ok(rb.out("pg", np.float32), gt.grad.numpy(), np.float32).all()
    assert nkb_ok(rb.out("pb", np.float32), bt.grad.numpy(), np.float32).all()


@pytest.mark.parametrize("b,s,h", [(2, 8, 32), (1, 3, 48)])
def test_layernorm_grad_half_follows_the_formula(prog, b, s, h):
    res, x, dy, gamma, mean, var = run_grad(prog, np.float16, b, s, h, seed=h)
    pdx, rg = formula(dy, x, var, mean, gamma, 1e-5, h)
    out = res.out("pdx", np.float16).reshape(-1, h)
    ok = nkb_ok(out, pdx, np.float16)
    assert ok.all(), (out[~ok][:4], pdx[~ok][:4])
    assert nkb_ok(res.out("res", np.float16).reshape(-1, h), rg, np.float16).all()


def test_layernorm_grad_documented_example(prog):
    """The page's example: dy = x = 0..63 as [1, 8, 8], mean 3.5 + 8i, variance 5.25, gamma 0..7 (its
    resForGamma values imply epsilon = 1e-4)."""
    v = np.arange(64, dtype=np.float32)
    res = prog.run("lng_f32", dy=v, x=v, var=np.full(8, 5.25, np.float32), mean=(3.5 + 8 * np.arange(8)).astype(np.float32),
                   gamma=np.arange(8, dtype=np.float32), b=1, s=8, h=8, oh=8, eps=100)  # epsilon 1e-4
    rg = res.out("res", np.float32)
    np.testing.assert_allclose(rg[:8], [-1.5275106, -1.091079, -0.6546474, -0.21821581, 0.21821581, 0.6546474, 1.091079,
                                        1.5275106], rtol=1e-6)
    pdx = res.out("pdx", np.float32)
    np.testing.assert_allclose(pdx[:8], [3.0548172, 0.4362857, -1.3093826, -2.182187, -2.1821284, -1.309207, 0.4365778,
                                         3.0552254], atol=2e-3)  # the NPU's float rounding: a few 1e-4


def test_layernorm_grad_in_place_and_framework_tmp(prog):
    a, *_ = run_grad(prog, np.float32, 2, 8, 64, seed=4)
    b, *_ = run_grad(prog, np.float32, 2, 8, 64, seed=4, inplace=1, tmp=0)
    assert not b.errors
    np.testing.assert_array_equal(a.out("pdx", np.float32), b.out("pdx", np.float32))
    np.testing.assert_array_equal(a.out("res", np.float32), b.out("res", np.float32))


def test_layernorm_grad_reuse_source_float(prog):
    res, x, dy, gamma, mean, var = run_grad(prog, np.float32, 2, 8, 64, seed=8, reuse=1)
    pdx, _ = formula(dy, x, var, mean, gamma, 1e-5, 64)
    assert nkb_ok(res.out("pdx", np.float32).reshape(-1, 64), pdx, np.float32).all()
    t = res.out("tiling", np.uint32)
    assert t[-1] == 4 * 4 * 1024  # minimum: 4 buffers of min(BSH, H*H) floats


def test_layernorm_grad_padded_h_warns_and_uses_the_real_columns(prog):
    res, x, dy, gamma, mean, var = run_grad(prog, np.float32, 1, 4, 16, oh=13, seed=2)
    assert any(d.code == "layernorm-padded-h" for d in res.warnings)
    pdx, rg = formula(dy, x, var, mean, gamma, 1e-5, 13)
    out = res.out("pdx", np.float32).reshape(-1, 16)
    assert nkb_ok(out[:, :13], pdx[:, :13], np.float32).all()
    xt = torch.from_numpy(x[:, :13].astype(np.float64)).requires_grad_()
    y = torch.nn.functional.layer_norm(xt, (13,), torch.from_numpy(gamma[:13].astype(np.float64)), None, eps=1e-5)
    y.backward(torch.from_numpy(dy[:, :13].astype(np.float64)))
    assert nkb_ok(out[:, :13], xt.grad.numpy(), np.float32).all()


def test_layernorm_grad_errors(prog):
    res, *_ = run_grad(prog, np.float32, 2, 8, 64, seed=1, tmp=1024, stack=4 * 6 * 1024, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert f"at least {6 * 4 * 1024}" in res.errors[0].message
    res, *_ = run_grad(prog, np.float32, 2, 8, 64, seed=1, stack=16, expect_ok=False)  # the tiling holds no row
    assert "[norm-tiling]" in res.run.stderr
    assert res.errors and res.errors[0].code == "layernorm-tiling"


def lng_tiling(b, s, h, oh, ts, reuse, stack):
    """LayerNormGradTiling from the documented host rules, written out by hand."""
    bufs = 9 if ts == 2 else (4 if reuse else 6)
    one = stack // 4 // bufs // h * h
    blk = 8 if ts == 4 else 16
    noh = -(-(one // h) // blk) * blk
    one = noh * h
    bsh = b * s * h
    r4 = reuse and ts == 4
    x1, x2, x3 = (0, 0, 3 * one) if r4 else (3 * one, 4 * one, 5 * one)
    tmps = (x3 + one, x3 + 2 * one, x3 + 3 * one) if ts == 2 else (0, 0, 0)
    pos = [0, one, 2 * one, x1, x2, x3, *tmps]
    pairs = [v for p in pos for v in (p, one)]
    return [stack, b, s, h, oh, one, noh, bsh // one, bsh % one, bsh % one // h, *pairs, fbits(1 / oh), fbits(2 / oh)]


@pytest.mark.parametrize("case,b,s,h,reuse,stack", [
    ("lng_f32", 2, 16, 64, 0, None), ("lng_f16", 2, 16, 64, 0, None), ("lng_f32", 2, 16, 64, 1, None),
    ("lng_f32", 4, 32, 32, 0, 40000), ("lng_f16", 1, 2, 64, 0, None),
])
def test_layernorm_grad_host_sizes_and_tiling(prog, case, b, s, h, reuse, stack):
    ts = 4 if case == "lng_f32" else 2
    bufs = 9 if ts == 2 else (4 if reuse else 6)
    mn = bufs * ts * min(b * s * h, h * h)
    mx = bufs * ts * max(b * s * h, h * h)
    kw = {"stack": stack} if stack else {}
    res = prog.run(case, b=b, s=s, h=h, oh=h, reuse=reuse, hostonly=1, **kw)
    t = res.out("tiling", np.uint32)
    assert list(t[60:]) == [mx, mn]
    exp = lng_tiling(b, s, h, h, ts, reuse, stack or mn)
    np.testing.assert_array_equal(t[:30], exp)
    np.testing.assert_array_equal(t[30:60], exp)


def test_layernorm_grad_tiny_input_overruns_the_minimum_buffer(prog):
    """dav-2201 rounds the rows of a split up to a block: [1, 2, 64] half needs far more than the minimum."""
    res, *_ = run_grad(prog, np.float16, 1, 2, 64, seed=3)
    assert any(d.code == "layernorm-tiling" for d in res.warnings)


# ---- LayerNormGradBeta -----------------------------------------------------------------------------

@pytest.mark.parametrize("case,dt", [("lngb_f32", np.float32), ("lngb_f16", np.float16)])
@pytest.mark.parametrize("b,s,h,oh", [(2, 8, 64, 64), (1, 7, 48, 48), (3, 5, 32, 29)])
def test_layernorm_grad_beta_sums_over_rows(prog, case, dt, b, s, h, oh):
    if dt == np.float16 and h % 16:
        pytest.skip("half needs H a multiple of 16")
    rng = np.random.default_rng(h + s)
    rg = rng.standard_normal((b * s, h)).astype(dt)
    dy = rng.standard_normal((b * s, h)).astype(dt)
    res = prog.run(case, res=rg.ravel(), dy=dy.ravel(), b=b, s=s, h=h, oh=oh, tmp=0 if b == 3 else -1)
    pg, pb = res.out("pg", dt), res.out("pb", dt)
    ref_g = (dy.astype(np.float64) * rg.astype(np.float64)).sum(0)
    ref_b = dy.astype(np.float64).sum(0)
    assert nkb_ok(pg[:oh], ref_g[:oh], dt).all() and nkb_ok(pb[:oh], ref_b[:oh], dt).all()
    assert (pg[oh:] == dt(-7)).all() and (pb[oh:] == dt(-7)).all()  # columns past the real H are left alone
    if oh < h:
        assert any(d.code == "layernorm-padded-h" for d in res.warnings)


def test_layernorm_grad_beta_documented_example(prog):
    v = np.arange(64, dtype=np.float32)
    res = prog.run("lngb_f32", res=v, dy=v, b=1, s=8, h=8, oh=8)
    np.testing.assert_array_equal(res.out("pg", np.float32), [8960, 9416, 9888, 10376, 10880, 11400, 11936, 12488])
    np.testing.assert_array_equal(res.out("pb", np.float32), [224, 232, 240, 248, 256, 264, 272, 280])


def lngb_tiling(b, s, h, oh, ts, stack):
    floats = stack // 4
    one = (floats - 2 * h) // 2 if ts == 2 else floats
    one = min(one // h * h, b * s * h)
    bsh = b * s * h
    tail = bsh % one
    pos = [0, h, 2 * h, 2 * h + one] if ts == 2 else [0, 0, 0, 0]
    return [floats, b, s, h, oh, bsh, b * s, one, 2 if ts == 2 else 1, bsh // one, tail, bsh - tail, tail // h, one,
            one // h, *pos, 0]


@pytest.mark.parametrize("case,b,s,h,stack", [
    ("lngb_f32", 2, 8, 64, None), ("lngb_f16", 2, 8, 64, None), ("lngb_f32", 4, 8, 32, 3000),
    ("lngb_f16", 4, 8, 32, 3000), ("lngb_f32", 2, 2, 16, 1 << 16),
])
def test_layernorm_grad_beta_host_sizes_and_tiling(prog, case, b, s, h, stack):
    ts = 4 if case == "lngb_f32" else 2
    bufs = 4 if ts == 2 else 2
    kw = {"stack": stack} if stack else {}
    res = prog.run(case, b=b, s=s, h=h, oh=h, hostonly=1, **kw)
    t = res.out("tiling", np.uint32)
    assert list(t[40:]) == [bufs * 4 * b * s * h, bufs * 4 * h]
    exp = lngb_tiling(b, s, h, h, ts, stack or bufs * 4 * h)
    np.testing.assert_array_equal(t[:20], exp)
    np.testing.assert_array_equal(t[20:40], exp)


def test_layernorm_grad_beta_buffer_below_the_tiling(prog):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(16 * 64).astype(np.float32)
    res = prog.run("lngb_f32", res=a, dy=a, b=2, s=8, h=64, tmp=512, stack=4096, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
