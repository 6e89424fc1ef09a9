"""LogSoftMax, SoftmaxFlashV2 and SoftmaxGrad / SoftmaxGradFront against torch/numpy, with their
host tiling functions and temporary-size helpers (values hand-computed from the documented rules)."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_softmax_ext.cpp")


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(out.astype(np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def split_fields(m, k, blk, base):
    """SoftMaxTiling's 16 fields for M rows split in chunks of `base` rows (hand-written rule)."""
    tail = m % base if base else 0
    return [m, k, m * k, m, blk, m * blk, base, k, base * k, base, blk, base * blk, m // base if base else 0, tail,
            tail * k, tail * blk]


# ---- LogSoftMax ------------------------------------------------------------------------------------

@pytest.mark.parametrize("case,dt", [("logsm_f32", np.float32), ("logsm_f16", np.float16)])
@pytest.mark.parametrize("m,k,ok", [(4, 64, 0), (7, 32, 0), (9, 128, 100)])
def test_log_softmax_is_log10_of_softmax(prog, case, dt, m, k, ok):
    rng = np.random.default_rng(m * k)
    x = (rng.standard_normal((m, k)) * 3).astype(dt)
    res = prog.run(case, x=x.ravel(), m=m, k=k, ok=ok, tmp=-1)
    valid = ok or k
    xv = torch.from_numpy(x[:, :valid].astype(np.float64))
    ref = (torch.log_softmax(xv, -1) / np.log(10.0)).numpy()  # documented: log10, not ln
    out = res.out("z", dt).reshape(m, k)[:, :valid]
    ok_mask = nkb_ok(out, ref, dt)
    assert ok_mask.all(), (out[~ok_mask][:4], ref[~ok_mask][:4])
    blk = 32 // np.dtype(dt).itemsize
    mx = res.out("mx", dt).reshape(m, blk)
    sm = res.out("sm", dt).reshape(m, blk)
    ref_max = xv.max(-1).values.numpy()
    ref_sum = torch.exp(xv - xv.max(-1, keepdim=True).values).sum(-1).numpy()
    for j in range(blk):
        np.testing.assert_array_equal(mx[:, j], ref_max.astype(dt))
        assert nkb_ok(sm[:, j], ref_sum, dt).all()


def test_log_softmax_documented_example_row(prog):
    """The documentation's worked example: row [-9 .. -2] gives -3.2391157 ... -0.19905435, sum 1.5814459."""
    x = np.tile(np.arange(-9, -1, dtype=np.float32), (1, 1))
    x = np.concatenate([x, np.full((1, 8), -50, np.float32)], axis=1)  # K = 16; the padding is left out (ok = 8)
    res = prog.run("logsm_f32", x=x.ravel(), m=1, k=16, ok=8, tmp=-1)
    out = res.out("z", np.float32)[:8]
    np.testing.assert_allclose(out[[0, 7]], [-3.2391157, -0.19905435], rtol=1e-6)
    np.testing.assert_allclose(res.out("sm", np.float32)[0], 1.5814459, rtol=1e-6)


def test_log_softmax_in_place_is_an_error_or_warning(prog):
    x = np.zeros((2, 64), np.float32)
    res = prog.run("logsm_f32", x=x.ravel(), m=2, k=64, ok=0, tmp=-1, inplace=1, expect_ok=False)
    assert any(d.code == "operand-in-place" for d in res.run.diagnostics)


def test_log_softmax_tmp_too_small(prog):
    res = prog.run("logsm_f32", x=np.zeros(4 * 64, np.float32), m=4, k=64, ok=0, tmp=512, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert "at least 544" in res.errors[0].message  # (8 + 64 + 64) * 4
    assert "adv_softmax_ext.cpp" in (res.errors[0].file or "")


@pytest.mark.parametrize("case,m,k,tmp,base", [
    ("logsm_f32", 4, 64, -1, 1),            # minimum: one row
    ("logsm_f32", 20, 64, 11 * 544, 8),     # 11 rows fit, rounded down to 8
    ("logsm_f16", 16, 256, 16 * 1344, 16),  # (16 + 256 + 64) * 4 = 1344 per row, all rows fit
])
def test_log_softmax_tiling(prog, case, m, k, tmp, base):
    dt = np.float32 if case == "logsm_f32" else np.float16
    ts = np.dtype(dt).itemsize
    res = prog.run(case, x=np.zeros(m * k, dt), m=m, k=k, ok=0, tmp=tmp)
    got = res.out("tiling", np.uint32)
    row = (32 // ts + k + 64) * 4
    exp = split_fields(m, k, 32 // ts, base)
    np.testing.assert_array_equal(got[:16], exp)   # host class
    np.testing.assert_array_equal(got[16:32], exp)  # kernel struct overload
    assert list(got[32:]) == [row, m * row]


# ---- SoftmaxFlashV2 -------------------------------------------------------------------------------

def flash_reference(x, inmax, insum, update, valid):
    xv = x[:, :valid].astype(np.float64)
    rmax = xv.max(-1)
    if not update:
        mx = rmax
        e = np.exp(x.astype(np.float64) - mx[:, None])
        return e, e[:, :valid].sum(-1), mx, None
    mx = np.maximum(inmax, rmax)
    e = np.exp(x.astype(np.float64) - mx[:, None])
    em = np.exp(inmax - mx)
    return e, em * insum + e[:, :valid].sum(-1), mx, em


def flash_run(prog, case, m, k, update, basic=0, ok=0, tmp=-1, inplace=0, seed=0, expect_ok=True):
    dt = np.float32 if case == "flash_f32" else np.float16
    ut = np.float16 if case == "flash_f16" else np.float32
    bu = 32 // np.dtype(ut).itemsize
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((m, k)) * 2).astype(dt)
    inmax = rng.uniform(-1, 3, m).astype(ut)
    insum = rng.uniform(1, 20, m).astype(ut)
    res = prog.run(case, x=x.ravel(), insum=np.repeat(insum, bu), inmax=np.repeat(inmax, bu), m=m, k=k, ok=ok,
                   update=update, basic=basic, tmp=tmp, inplace=inplace, expect_ok=expect_ok)
    return res, x, inmax.astype(np.float64), insum.astype(np.float64), dt, ut


@pytest.mark.parametrize("case", ["flash_f32", "flash_f16", "flash_f16_f32"])
@pytest.mark.parametrize("update", [0, 1])
@pytest.mark.parametrize("m,k,ok,basic", [(8, 64, 0, 1), (5, 32, 0, 0), (3, 128, 70, 0), (16, 512, 0, 1)])
def test_flashv2_matches_reference(prog, case, update, m, k, ok, basic):
    res, x, inmax, insum, dt, ut = flash_run(prog, case, m, k, update, basic=basic, ok=ok, seed=m + k + update)
    valid = ok or k
    e, s, mx, em = flash_reference(x, inmax, insum, update, valid)
    out = res.out("z", dt).reshape(m, k)[:, :valid]
    assert nkb_ok(out, e[:, :valid], dt).all()
    bu, bt = 32 // np.dtype(ut).itemsize, 32 // np.dtype(dt).itemsize
    sm = res.out("sm", ut).reshape(m, bu)
    mxo = res.out("mx", ut).reshape(m, bu)
    for j in range(bu):
        assert nkb_ok(sm[:, j], s, ut).all(), (sm[:, j], s)
        np.testing.assert_array_equal(mxo[:, j], mx.astype(ut))
    if update:
        emo = res.out("em", dt).reshape(m, bt)
        for j in range(bt):
            assert nkb_ok(emo[:, j], em, dt).all()


def test_flashv2_two_blocks_equal_softmax_over_the_whole_row(prog):
    """FlashAttention-2 use: block 1 without update, block 2 with update; sum/max then give the full softmax."""
    m, k = 4, 64
    rng = np.random.default_rng(11)
    full = (rng.standard_normal((m, 2 * k)) * 3).astype(np.float32)
    r1 = prog.run("flash_f32", x=full[:, :k].ravel(), insum=np.zeros(m * 8, np.float32), inmax=np.zeros(m * 8, np.float32),
                  m=m, k=k, update=0, basic=0, tmp=-1)
    s1, m1 = r1.out("sm", np.float32), r1.out("mx", np.float32)
    r2 = prog.run("flash_f32", x=full[:, k:].ravel(), insum=s1, inmax=m1, m=m, k=k, update=1, basic=0, tmp=-1)
    s2 = r2.out("sm", np.float32).reshape(m, 8)[:, 0].astype(np.float64)
    m2 = r2.out("mx", np.float32).reshape(m, 8)[:, 0].astype(np.float64)
    em = r2.out("em", np.float32).reshape(m, 8)[:, 0].astype(np.float64)
    p1 = r1.out("z", np.float32).reshape(m, k) * em[:, None] / s2[:, None]
    p2 = r2.out("z", np.float32).reshape(m, k) / s2[:, None]
    ref = torch.softmax(torch.from_numpy(full.astype(np.float64)), -1).numpy()
    assert nkb_ok(np.concatenate([p1, p2], 1), ref, np.float32).all()
    np.testing.assert_array_equal(m2, full.max(1))


def test_flashv2_in_place_like_the_official_example(prog):
    """src == dst, max == inMax, expSum == inExpSum: documented as allowed; results as out of place."""
    args = dict(m=8, k=64, update=1, basic=1, seed=5)
    a, *_ = flash_run(prog, "flash_f32", inplace=0, **args)
    b, *_ = flash_run(prog, "flash_f32", inplace=1, **args)
    assert not b.warnings and not b.errors
    for name in ("z", "sm", "mx", "em"):
        np.testing.assert_array_equal(a.out(name, np.float32), b.out(name, np.float32))


def test_flashv2_framework_tmp(prog):
    res, x, inmax, insum, dt, ut = flash_run(prog, "flash_f32", 6, 64, 1, tmp=0)
    e, s, mx, em = flash_reference(x, inmax, insum, 1, 64)
    assert nkb_ok(res.out("z", dt).reshape(6, 64), e, dt).all()


def test_flashv2_tmp_below_minimum(prog):
    res, *_ = flash_run(prog, "flash_f16", 4, 64, 1, tmp=256, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert "at least 640" in res.errors[0].message  # half src and sum, one row: (2 * 16 + 64 + 64) * 4


def test_flashv2_basic_block_on_a_wrong_shape_warns(prog):
    res, *_ = flash_run(prog, "flash_f32", 5, 64, 0, basic=1)
    assert any(d.code == "softmax-basic-block" for d in res.warnings)


def fv2_row(k, ts1, ts2, basic):
    blk = 32 // ts2
    r = 128 if k == 1024 else 64
    if basic:
        return blk + k + r if ts1 == 2 else blk + r
    return 2 * blk + k + 64 if ts1 == 2 else blk + 64


@pytest.mark.parametrize("case,m,k,basic,tmp", [
    ("flash_f32", 8, 64, 0, -1), ("flash_f32", 8, 64, 1, -1), ("flash_f16", 4, 128, 0, -1),
    ("flash_f16_f32", 32, 1024, 1, -1), ("flash_f32", 40, 64, 0, 0), ("flash_f32", 40, 64, 0, 11 * 72 * 4),
    ("flash_f16", 64, 512, 1, 0),
])
def test_flashv2_sizes_and_tiling(prog, case, m, k, basic, tmp):
    ts1 = 4 if case == "flash_f32" else 2
    ts2 = 2 if case == "flash_f16" else 4
    res, *_ = flash_run(prog, case, m, k, 1, basic=basic, tmp=tmp)
    got = res.out("tiling", np.uint32)
    is_basic = basic and k % 64 == 0
    row = fv2_row(k, ts1, ts2, is_basic)
    mn = row * (8 if is_basic else 1) * 4
    mm = m
    if is_basic and m % 8 == 0:
        while mm * k >= 16384:
            mm //= 2
    mx = fv2_row(k, ts1, ts2, is_basic and m % 8 == 0) * mm * 4
    assert list(got[32:]) == [mn, mx]
    work = (mn if tmp < 0 else (tmp or mx)) // 4
    base = min(work // fv2_row(k, ts1, ts2, is_basic and m % 8 == 0), m)
    if is_basic and m % 8 == 0 and base > 8:
        base = base // 8 * 8
        while m % base:
            base -= 8
        while base * k >= 16384:
            base //= 2
    if base < m and base > 8:
        base = base // 8 * 8
    exp = split_fields(m, k, 32 // ts2, base)
    np.testing.assert_array_equal(got[:16], exp)
    np.testing.assert_array_equal(got[16:32], exp)  # kernel-side constexpr SoftMaxFlashV2TilingFunc agrees


def test_flashv2_reduce_max_form(prog):
    m, k = 5, 64
    rng = np.random.default_rng(2)
    x = rng.standard_normal((m, k)).astype(np.float32)
    inmax = np.zeros(8, np.float32)
    inmax[:m] = rng.uniform(0, 3, m)
    insum = np.zeros(8, np.float32)
    insum[:m] = rng.uniform(1, 4, m)
    res = prog.run("flash_rmax", x=x.ravel(), insum=insum, inmax=inmax, m=m, k=k, nobrc=1)
    e, s, mx, em = flash_reference(x, inmax[:m].astype(np.float64), insum[:m].astype(np.float64), 1, k)
    np.testing.assert_array_equal(res.out("rmax", np.float32)[:m], x.max(1))
    np.testing.assert_array_equal(res.out("mx", np.float32)[:m], mx.astype(np.float32))
    assert nkb_ok(res.out("sm", np.float32)[:m], s, np.float32).all()
    assert nkb_ok(res.out("em", np.float32)[:m], em, np.float32).all()
    assert nkb_ok(res.out("z", np.float32).reshape(m, k), e, np.float32).all()
    # SOFTMAX_NORMAL: documented to write nothing
    res = prog.run("flash_rmax", x=x.ravel(), insum=insum, inmax=inmax, m=m, k=k, nobrc=0)
    assert any(d.code == "softmax-mode" for d in res.warnings)
    assert (res.out("rmax", np.float32) == -7).all() and (res.out("z", np.float32) == -7).all()


# ---- SoftmaxGrad / SoftmaxGradFront ---------------------------------------------------------------

def grad_reference(g, y, valid):
    gv, yv = torch.from_numpy(g.astype(np.float64)), torch.from_numpy(y.astype(np.float64))
    d = (gv[:, :valid] * yv[:, :valid]).sum(-1, keepdim=True)
    return d.numpy()[:, 0], ((gv - d) * yv).numpy()


@pytest.mark.parametrize("case,dt", [("grad_f32", np.float32), ("grad_f16", np.float16)])
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("m,k,ok,tmp", [(4, 64, 0, -1), (7, 32, 0, 0), (3, 128, 90, -1)])
def test_softmax_grad_matches_torch(prog, case, dt, mode, m, k, ok, tmp):
    rng = np.random.default_rng(m + k + mode)
    y = torch.softmax(torch.from_numpy(rng.standard_normal((m, k))), -1).numpy().astype(dt)
    g = rng.standard_normal((m, k)).astype(dt)
    res = prog.run(case, g=g.ravel(), y=y.ravel(), m=m, k=k, ok=ok, mode=mode, tmp=tmp)
    valid = ok or k
    d, full = grad_reference(g, y, valid)
    if mode == 0:
        out = res.out("z", dt).reshape(m, k)[:, :valid]
        assert nkb_ok(out, full[:, :valid], dt).all()
        # cross-check with autograd: y = softmax(x), dx = J^T g
        if ok == 0 and dt == np.float32:
            x = torch.log(torch.from_numpy(y.astype(np.float64))).requires_grad_()
            torch.softmax(x, -1).backward(torch.from_numpy(g.astype(np.float64)))
            assert nkb_ok(out, x.grad.numpy(), dt).all()
    else:
        blk = 32 // np.dtype(dt).itemsize
        out = res.out("z", dt).reshape(m, blk)
        for j in range(blk):
            assert nkb_ok(out[:, j], d, dt).all()


def test_softmax_grad_src_dst_in_place(prog):
    rng = np.random.default_rng(9)
    y = rng.uniform(0, 1, (4, 64)).astype(np.float32)
    g = rng.standard_normal((4, 64)).astype(np.float32)
    res = prog.run("grad_f32", g=g.ravel(), y=y.ravel(), m=4, k=64, ok=0, mode=0, tmp=-1, inplace=1)
    assert not res.warnings
    assert nkb_ok(res.out("z", np.float32).reshape(4, 64), grad_reference(g, y, 64)[1], np.float32).all()


@pytest.mark.parametrize("case,ts", [("grad_f32", 4), ("grad_f16", 2)])
@pytest.mark.parametrize("mode", [0, 2])
def test_softmax_grad_sizes_and_tiling(prog, case, ts, mode):
    m, k = 20, 64
    blk = 32 // ts
    row = (2 * blk + 3 * k + 64) if ts == 2 else ((blk + k + 64) if mode else (2 * blk + k + 64))
    dt = np.float32 if ts == 4 else np.float16
    res = prog.run(case, g=np.zeros(m * k, dt), y=np.zeros(m * k, dt), m=m, k=k, ok=0, mode=mode, tmp=11 * row * 4)
    got = res.out("tiling", np.uint32)
    assert list(got[16:]) == [row * 4, m * row * 4]
    np.testing.assert_array_equal(got[:16], split_fields(m, k, blk, 8))  # 11 rows fit -> 8


def test_softmax_grad_tmp_too_small(prog):
    res = prog.run("grad_f16", g=np.zeros(256, np.float16), y=np.zeros(256, np.float16), m=4, k=64, ok=0, mode=0,
                   tmp=256, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert f"at least {(32 + 3 * 64 + 64) * 4}" in res.errors[0].message
