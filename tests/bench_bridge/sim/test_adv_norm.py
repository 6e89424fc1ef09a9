"""LayerNorm (both forms) and RmsNorm against torch, with GetLayerNormMaxMinTmpSize /
GetLayerNormNDTilingInfo / GetRmsNormMaxMinTmpSize / GetRmsNormTilingInfo checked against the
documented rules (re-derived here by hand) and the temporary-buffer misuse rules."""
from __future__ import annotations

import struct

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_norm.cpp")


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(out.astype(np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def a32(v):
    return (v + 31) // 32 * 32


def up(v, a):
    return (v + a - 1) // a * a


def f32bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def pad_to_block(arr, dt):
    n = up(arr.size, 32 // np.dtype(dt).itemsize)
    out = np.zeros(n, dt)
    out[:arr.size] = arr.ravel()
    return out


# ---- LayerNorm [B, S, H] ---------------------------------------------------------------------------

def ln_bsh_sizes(b, s, h, ts, reuse):
    bufs = 2 if reuse and ts == 4 else 3
    mv = a32(b * s * 4)
    return bufs * a32(h * 4) + 2 * mv, bufs * a32(b * s * h * 4) + 2 * mv  # (min, max)


def ln_bsh_fields(b, s, h, oh, ts, reuse, stack):
    x, mv = b * s * h, b * s
    bufs = 2 if reuse and ts == 4 else 3
    blk = up(mv, 8)
    mvt = 0 if ts == 4 else 2 * blk
    total = stack // 4
    one = min((total - mvt) // bufs // h * h, x)
    tail = x % one
    return [b, s, h, oh, x, mv, bufs, 0, blk, blk, blk, total, one, mvt, mvt + one, mvt + 2 * one, x // one, one, tail,
            x - tail, one // h, tail // h, mv - tail // h, one, one // h, f32bits(np.float32(1.0) / np.float32(oh))]


def ln_run(prog, case, b, s, h, oh=None, tmp=-1, reuse=0, inplace=0, seed=0, eps=1e-5, expect_ok=True, stack=None):
    dt = np.float32 if case == "ln_f32" else np.float16
    oh = oh or h
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((b * s, h)) * 2 + 0.5).astype(dt)
    x[:, oh:] = 0  # documented: padding columns hold zeros
    g = rng.uniform(0.5, 1.5, h).astype(dt)
    be = rng.uniform(-1, 1, h).astype(dt)
    kw = {} if stack is None else {"stack": stack}
    res = prog.run(case, x=x.ravel(), g=pad_to_block(g, dt), be=pad_to_block(be, dt), b=b, s=s, h=h, oh=oh, tmp=tmp,
                   reuse=reuse, inplace=inplace, eps=np.array([eps], np.float32), expect_ok=expect_ok, **kw)
    return res, x, g, be, dt


@pytest.mark.parametrize("case", ["ln_f32", "ln_f16"])
@pytest.mark.parametrize("b,s,h,oh,tmp", [(2, 3, 64, 64, -1), (1, 5, 32, 20, 0), (3, 4, 128, 128, 4096)])
def test_layernorm_bsh_matches_torch(prog, case, b, s, h, oh, tmp):
    res, x, g, be, dt = ln_run(prog, case, b, s, h, oh, tmp=tmp, seed=b * s * h)
    xv = torch.from_numpy(x[:, :oh].astype(np.float64))
    ref = F.layer_norm(xv, (oh,), torch.from_numpy(g[:oh].astype(np.float64)), torch.from_numpy(be[:oh].astype(np.float64)),
                       eps=1e-5).numpy()
    y = res.out("y", dt).reshape(b * s, h)[:, :oh]
    ok = nkb_ok(y, ref, dt)
    assert ok.all(), (y[~ok][:4], ref[~ok][:4])
    assert nkb_ok(res.out("mean", dt)[:b * s], xv.mean(-1).numpy(), dt).all()
    assert nkb_ok(res.out("var", dt)[:b * s], xv.var(-1, unbiased=False).numpy(), dt).all()


def test_layernorm_documented_example(prog):
    """The documentation's [1, 8, 8] example: row 0..7, gamma = beta = 0..7 -> -0.09107912 at h = 1; variance 5.25.
    (The page does not give epsilon; its numbers are those of epsilon = 1e-4.)"""
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    gb = np.arange(8, dtype=np.float32)
    res = prog.run("ln_f32", x=x.ravel(), g=gb, be=gb, b=1, s=8, h=8, oh=8, tmp=-1, reuse=0, inplace=0,
                   eps=np.array([1e-4], np.float32))
    y = res.out("y", np.float32).reshape(8, 8)
    np.testing.assert_allclose(y[:, 1], -0.09107912, rtol=1e-5)
    np.testing.assert_allclose(y[:, 7], 17.692575, rtol=1e-6)
    np.testing.assert_allclose(res.out("var", np.float32)[:8], 5.25)
    np.testing.assert_allclose(res.out("mean", np.float32)[:8], np.arange(8) * 8 + 3.5)


def test_layernorm_output_may_reuse_input(prog):
    a, *_ = ln_run(prog, "ln_f32", 2, 2, 64, seed=3)
    b, *_ = ln_run(prog, "ln_f32", 2, 2, 64, seed=3, inplace=1)
    assert not b.warnings
    np.testing.assert_array_equal(a.out("y", np.float32), b.out("y", np.float32))


@pytest.mark.parametrize("case,ts", [("ln_f32", 4), ("ln_f16", 2)])
@pytest.mark.parametrize("b,s,h,oh,reuse,stack", [(2, 3, 64, 60, 0, None), (4, 5, 32, 32, 1, 3000), (1, 7, 256, 256, 0, 20000)])
def test_layernorm_bsh_sizes_and_tiling(prog, case, ts, b, s, h, oh, reuse, stack):
    if ts == 2 and h * 2 % 32:
        pytest.skip()
    mn, mx = ln_bsh_sizes(b, s, h, ts, reuse)
    stack = stack or mn
    res = prog.run(case, b=b, s=s, h=h, oh=oh, reuse=reuse, tmp=-1, stack=stack, hostonly=1)
    got = res.out("tiling", np.uint32)
    exp = ln_bsh_fields(b, s, h, oh, ts, reuse, stack)
    np.testing.assert_array_equal(got[:26], exp)
    np.testing.assert_array_equal(got[26:52], exp)  # AscendC::tiling::LayerNormTiling overload
    assert list(got[52:]) == [mn, mx]


def test_layernorm_tmp_smaller_than_the_tiling_plan(prog):
    # tiling planned for a 20000-byte stack, kernel given the documented minimum only
    res, *_ = ln_run(prog, "ln_f32", 1, 7, 256, stack=20000, tmp=ln_bsh_sizes(1, 7, 256, 4, 0)[0], expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert "adv_norm.cpp" in res.errors[0].file


def test_layernorm_empty_tiling_is_an_error(prog):
    # a stack too small for one row leaves the tiling untouched (all zero)
    res, *_ = ln_run(prog, "ln_f32", 1, 2, 64, tmp=-1, stack=64, expect_ok=False)
    assert res.errors and res.errors[0].code == "layernorm-tiling"


# ---- LayerNorm [A, R] (rstd) -----------------------------------------------------------------------

def ln_ar_sizes(a, r, ts):
    rp = up(r, 32 // ts)
    mv = a32(a * 4)
    mx, mn = 2 * a32(a * rp * 4) + mv, 2 * a32(rp * 4) + mv
    nmax = 2 * a32(rp * 4) + 2 * a32(up(a, 8) * rp * 4)
    nmin = max(a32(a * 4), (2 if ts == 4 else 4) * a32(rp * 4))
    if mn - mv <= nmin:
        mn = nmin + mv
    if mx - mv <= nmax:
        mx = nmax + mv
    return mn, mx


@pytest.mark.parametrize("case,dt,ut", [("lnr_f32", np.float32, np.float32), ("lnr_f16", np.float16, np.float16),
                                         ("lnr_f16_f32", np.float16, np.float32)])
@pytest.mark.parametrize("a,r,cfg,tmp", [(4, 64, 0, -1), (3, 50, 0, 0), (5, 24, 1, -1), (2, 40, 2, -1)])
def test_layernorm_rstd_form_matches_torch(prog, case, dt, ut, a, r, cfg, tmp):
    rp = up(r, 32 // np.dtype(dt).itemsize)
    rng = np.random.default_rng(a * r + cfg)
    x = np.zeros((a, rp), dt)
    x[:, :r] = (rng.standard_normal((a, r)) * 3 - 1).astype(dt)
    g = np.zeros(rp, ut)
    be = np.zeros(rp, ut)
    g[:r] = rng.uniform(0.5, 2, r)
    be[:r] = rng.uniform(-1, 1, r)
    res = prog.run(case, x=x.ravel(), g=g, be=be, a=a, r=r, tmp=tmp, cfg=cfg, eps=np.array([1e-5], np.float32))
    xv = torch.from_numpy(x[:, :r].astype(np.float64))
    w = None if cfg == 1 else torch.from_numpy(g[:r].astype(np.float64))
    bias = None if cfg == 1 else torch.from_numpy(be[:r].astype(np.float64))
    ref = F.layer_norm(xv, (r,), w, bias, eps=1e-5).numpy()
    y = res.out("y", dt).reshape(a, rp)[:, :r]
    assert nkb_ok(y, ref, dt).all()
    mean, rstd = res.out("mean", np.float32)[:a], res.out("rstd", np.float32)[:a]
    if cfg == 2:  # isOnlyOutput: mean and rstd untouched
        assert (mean == -7).all() and (rstd == -7).all()
    else:
        assert nkb_ok(mean, xv.mean(-1).numpy(), np.float32).all()
        assert nkb_ok(rstd, 1 / np.sqrt(xv.var(-1, unbiased=False).numpy() + 1e-5), np.float32).all()


@pytest.mark.parametrize("case,ts", [("lnr_f32", 4), ("lnr_f16", 2)])
@pytest.mark.parametrize("a,r,stack", [(4, 64, None), (10, 50, 4000), (3, 1000, None)])
def test_layernorm_rstd_sizes_and_tiling(prog, case, ts, a, r, stack):
    mn, mx = ln_ar_sizes(a, r, ts)
    stack = stack or mn
    res = prog.run(case, a=a, r=r, tmp=-1, stack=stack, hostonly=1)
    got = res.out("tiling", np.uint32)
    assert list(got[26:]) == [mn, mx]
    rp = up(r, 32 // ts)
    x, blk, total = a * rp, up(a, 8), stack // 4
    one = min((total - blk) // 2 // rp * rp, x)
    tail = x % one
    exp = [a, r, 0, 0, 0, 0, x, a, 2, 0, blk, total, one, blk, blk + one, 0, x // one, one, tail, x - tail, one // rp,
           tail // rp, a - tail // rp, one, one // rp, f32bits(np.float32(1.0) / np.float32(r))]
    np.testing.assert_array_equal(got[:26], exp)


# ---- RmsNorm ---------------------------------------------------------------------------------------

def rms_sizes(b, s, h, ts):
    c = 2 if ts == 2 else 1
    return (h * c + 8) * 4, (b * s * h * c + up(b * s, 32 // ts)) * 4


def rms_fields(b, s, h, oh, ts, stack, basic):
    total, c, x = stack // 4, (1 if ts == 4 else 2), b * s * h
    bs = 1
    while total >= (bs + 1) * h * c + up(bs + 1, 8):
        bs += 1
    one = min(bs * h, x)
    bs = one // h
    bs = (bs if bs < 8 else bs // 8 * 8) if basic else min(bs, 255)
    one = bs * h
    tail = x % one
    return [b, s, h, oh, f32bits(np.float32(1.0) / np.float32(oh)), one, bs, up(bs, 8), x // one, x - tail, tail, tail // h]


@pytest.mark.parametrize("case,dt", [("rms_f32", np.float32), ("rms_f16", np.float16)])
@pytest.mark.parametrize("b,s,h,oh,tmp,basic", [(2, 4, 64, 64, -1, 1), (1, 3, 48, 40, 0, 0), (2, 5, 128, 100, 6000, 0)])
def test_rmsnorm_matches_torch(prog, case, dt, b, s, h, oh, tmp, basic):
    if dt == np.float16 and h % 16:
        pytest.skip()
    rng = np.random.default_rng(b + s + h)
    x = np.zeros((b * s, h), dt)
    x[:, :oh] = (rng.standard_normal((b * s, oh)) * 2).astype(dt)
    g = rng.uniform(0.5, 1.5, h).astype(dt)
    res = prog.run(case, x=x.ravel(), g=pad_to_block(g, dt), b=b, s=s, h=h, oh=oh, tmp=tmp, basic=basic,
                   eps=np.array([1e-6], np.float32))
    xv = torch.from_numpy(x[:, :oh].astype(np.float64))
    ref = (xv * torch.rsqrt(xv.pow(2).mean(-1, keepdim=True) + float(dt(1e-6))) *
           torch.from_numpy(g[:oh].astype(np.float64))).numpy()
    y = res.out("y", dt).reshape(b * s, h)[:, :oh]
    assert nkb_ok(y, ref, dt).all()
    assert not res.warnings


def test_rmsnorm_documented_example(prog):
    x = np.arange(16, dtype=np.float32)
    res = prog.run("rms_f32", x=x, g=x, b=1, s=1, h=16, oh=16, tmp=-1, basic=0, eps=np.array([1e-5], np.float32))
    y = res.out("y", np.float32)
    np.testing.assert_allclose(y[[1, 2, 15]], [0.11359233, 0.4543693, 25.558275], rtol=1e-6)


@pytest.mark.parametrize("case,ts", [("rms_f32", 4), ("rms_f16", 2)])
@pytest.mark.parametrize("b,s,h,oh,stack,basic", [(2, 4, 64, 64, None, 1), (3, 100, 32, 30, 50000, 0),
                                                  (1, 600, 16, 16, 80000, 0), (2, 10, 64, 64, 20000, 1)])
def test_rmsnorm_sizes_and_tiling(prog, case, ts, b, s, h, oh, stack, basic):
    mn, mx = rms_sizes(b, s, h, ts)
    stack = stack or mn
    res = prog.run(case, b=b, s=s, h=h, oh=oh, tmp=-1, stack=stack, basic=basic, hostonly=1)
    got = res.out("tiling", np.uint32)
    basic_ok = not basic or (h % 64 == 0 and (b * s) % 8 == 0 and h < 2048)
    assert got[14] == int(basic_ok)
    if not basic_ok:
        assert got[15] == 0
        return
    assert list(got[12:14]) == [mn, mx]
    assert got[15] == 1
    np.testing.assert_array_equal(got[:12], rms_fields(b, s, h, oh, ts, stack, basic))


def test_rmsnorm_tiling_rejects_bad_shapes(prog):
    # real H larger than the padded H -> false
    res = prog.run("rms_f32", b=1, s=2, h=16, oh=24, tmp=-1, basic=0, hostonly=1)
    assert res.out("tiling", np.uint32)[15] == 0
    # a buffer below the minimum -> false
    res = prog.run("rms_f32", b=1, s=2, h=16, oh=16, tmp=-1, stack=64, basic=0, hostonly=1)
    assert res.out("tiling", np.uint32)[15] == 0


def test_rmsnorm_ignored_tiling_failure_and_small_tmp_fail(prog):
    x = np.ones(3 * 64, np.float32)
    # B * S = 3 is not a basic block: GetRmsNormTilingInfo returns false and leaves the tiling empty
    res = prog.run("rms_f32", x=x, g=np.ones(64, np.float32), b=1, s=3, h=64, oh=64, tmp=-1, basic=1,
                   eps=np.array([1e-5], np.float32), expect_ok=False)
    assert res.errors and res.errors[0].code == "rmsnorm-tiling"
    res = prog.run("rms_f32", x=x, g=np.ones(64, np.float32), b=1, s=3, h=64, oh=64, tmp=128, stack=1024, basic=0,
                   eps=np.array([1e-5], np.float32), expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"


# ---- Normalize -------------------------------------------------------------------------------------

def normalize_sizes(a, r, tsu, tst):
    rp = up(r, 32 // tst)
    mn = max(a32(a * 4), (2 if tsu == 4 else 4) * a32(rp * 4))
    mx = 2 * a32(rp * 4) + 2 * a32(up(a, 8) * rp * 4)
    return mn, mx


@pytest.mark.parametrize("case,dt,ut", [("nl_f32", np.float32, np.float32), ("nl_f16", np.float16, np.float16),
                                         ("nl_f16_f32", np.float16, np.float32)])
@pytest.mark.parametrize("a,r,cfg,tmp", [(4, 64, 0, -1), (3, 50, 0, 0), (5, 24, 1, -1), (2, 40, 2, -1)])
def test_normalize_with_given_mean_and_variance(prog, case, dt, ut, a, r, cfg, tmp):
    rp = up(r, 32 // np.dtype(dt).itemsize)
    rng = np.random.default_rng(a * r + cfg + 1)
    x = np.zeros((a, rp), dt)
    x[:, :r] = (rng.standard_normal((a, r)) * 2).astype(dt)
    g, be = np.zeros(rp, ut), np.zeros(rp, ut)
    g[:r], be[:r] = rng.uniform(0.5, 2, r), rng.uniform(-1, 1, r)
    xv = x[:, :r].astype(np.float64)
    mean = pad_to_block(xv.mean(1).astype(np.float32), np.float32)
    var = pad_to_block(xv.var(1).astype(np.float32), np.float32)
    res = prog.run(case, x=x.ravel(), g=g, be=be, mean=mean, var=var, a=a, r=r, tmp=tmp, cfg=cfg,
                   eps=np.array([1e-5], np.float32))
    rs = 1 / np.sqrt(var[:a].astype(np.float64) + 1e-5)
    ref = (xv - mean[:a, None]) * rs[:, None]
    if cfg != 1:
        ref = ref * g[:r].astype(np.float64) + be[:r].astype(np.float64)
    assert nkb_ok(res.out("y", dt).reshape(a, rp)[:, :r], ref, dt).all()
    ref_ln = F.layer_norm(torch.from_numpy(xv), (r,), eps=1e-5).numpy()  # cross-check with torch when no gamma/beta
    if cfg == 1:
        assert nkb_ok(res.out("y", dt).reshape(a, rp)[:, :r], ref_ln, dt).all()
    rstd = res.out("rstd", np.float32)[:a]
    if cfg == 2:
        assert (rstd == -7).all()
    else:
        assert nkb_ok(rstd, rs, np.float32).all()


@pytest.mark.parametrize("case,tsu,tst", [("nl_f32", 4, 4), ("nl_f16", 2, 2), ("nl_f16_f32", 4, 2)])
@pytest.mark.parametrize("a,r", [(4, 64), (100, 8), (3, 1000)])
def test_normalize_sizes(prog, case, tsu, tst, a, r):
    res = prog.run(case, a=a, r=r, hostonly=1)
    assert list(res.out("sizes", np.uint32)) == list(normalize_sizes(a, r, tsu, tst))


def test_normalize_tmp_too_small(prog):
    a, r = 2, 64
    res = prog.run("nl_f16", x=np.zeros(a * r, np.float16), g=np.zeros(r, np.float16), be=np.zeros(r, np.float16),
                   mean=np.zeros(8, np.float32), var=np.ones(8, np.float32), a=a, r=r, tmp=512, cfg=0,
                   eps=np.array([1e-5], np.float32), expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert f"at least {4 * 256}" in res.errors[0].message  # half U: 4 * align32(64 * 4)


# ---- DeepNorm --------------------------------------------------------------------------------------

@pytest.mark.parametrize("case,dt", [("dn_f32", np.float32), ("dn_f16", np.float16)])
@pytest.mark.parametrize("b,s,h,oh,tmp,reuse,basic,inplace", [(2, 4, 64, 64, -1, 0, 1, 0), (1, 3, 32, 30, 0, 0, 0, 0),
                                                              (2, 2, 128, 128, -1, 1, 0, 1)])
def test_deepnorm_matches_torch(prog, case, dt, b, s, h, oh, tmp, reuse, basic, inplace):
    if reuse and dt == np.float16:
        pytest.skip("isReuseSrc is for float")
    rng = np.random.default_rng(b * s * h + reuse)
    x = np.zeros((b * s, h), dt)
    gx = np.zeros((b * s, h), dt)
    x[:, :oh] = rng.standard_normal((b * s, oh)).astype(dt)
    gx[:, :oh] = rng.standard_normal((b * s, oh)).astype(dt)
    g = rng.uniform(0.5, 1.5, h).astype(dt)
    be = rng.uniform(-1, 1, h).astype(dt)
    alpha, eps = 1.7, 1e-5
    res = prog.run(case, x=x.ravel(), gx=gx.ravel(), g=pad_to_block(g, dt), be=pad_to_block(be, dt), b=b, s=s, h=h, oh=oh,
                   tmp=tmp, reuse=reuse, basic=basic, inplace=inplace, ab=np.array([alpha, eps], np.float32))
    yv = torch.from_numpy(float(dt(alpha)) * x[:, :oh].astype(np.float64) + gx[:, :oh].astype(np.float64))
    ref = F.layer_norm(yv, (oh,), torch.from_numpy(g[:oh].astype(np.float64)), torch.from_numpy(be[:oh].astype(np.float64)),
                       eps=float(dt(eps))).numpy()
    out = res.out("y", dt).reshape(b * s, h)[:, :oh]
    assert nkb_ok(out, ref, dt).all()
    assert nkb_ok(res.out("mean", dt)[:b * s], yv.mean(-1).numpy(), dt).all()
    # the third output holds the variance on dav-2201 (what the official example checks)
    assert nkb_ok(res.out("var", dt)[:b * s], yv.var(-1, unbiased=False).numpy(), dt).all()
    assert not res.warnings


@pytest.mark.parametrize("case,ts", [("dn_f32", 4), ("dn_f16", 2)])
@pytest.mark.parametrize("b,s,h,oh,stack,reuse,basic,ok", [(2, 4, 64, 64, None, 0, 1, 1), (3, 5, 32, 20, 2000, 0, 0, 1),
                                                           (2, 3, 64, 64, None, 0, 1, 0), (1, 2, 2048, 2048, None, 0, 0, 0),
                                                           (4, 8, 64, 64, 30000, 1, 1, 1)])
def test_deepnorm_sizes_and_tiling(prog, case, ts, b, s, h, oh, stack, reuse, basic, ok):
    mn, mx = ln_bsh_sizes(b, s, h, ts, reuse)
    res = prog.run(case, b=b, s=s, h=h, oh=oh, tmp=-1, reuse=reuse, basic=basic, hostonly=1,
                   **({} if stack is None else {"stack": stack}))
    got = res.out("tiling", np.uint32)
    assert list(got[28:]) == [ok, ok]
    if not ok:
        return
    assert list(got[26:28]) == [mn, mx]
    stack = stack or mn
    exp = ln_bsh_fields(b, s, h, oh, ts, reuse, stack)
    if basic and exp[12] // (8 * h):  # basic blocks: the per-round size in whole groups of 8 rows
        one = exp[12] // (8 * h) * (8 * h)
        x, mv, mvt = b * s * h, b * s, exp[13]
        tail = x % one
        exp[12:25] = [one, mvt, mvt + one, mvt + 2 * one, x // one, one, tail, x - tail, one // h, tail // h,
                      mv - tail // h, one, one // h]
    np.testing.assert_array_equal(got[:26], exp)
