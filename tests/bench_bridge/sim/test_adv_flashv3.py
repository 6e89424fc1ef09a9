"""SoftmaxFlashV3 against a numpy model of its documented formula, and its host helpers
(GetSoftMaxFlashV3MaxMinTmpSize, SoftMaxFlashV3TilingFunc) against the documented sizes."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_flashv3.cpp")


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(np.asarray(out, np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def group_of_column(k):
    """The documented grouping of the row-mean pseudo-code: columns below 512 go by 64-element chunk,
    later columns by their 32-byte block inside each 64-element chunk."""
    j = np.arange(k)
    return np.where(j < 512, j // 64, (j % 64) // 8)


def reference(x, inmean, insum, inmax, update, loop=1, alpha=0.9375):
    x = x.astype(np.float64)
    m, k = x.shape
    s = alpha / (1 - alpha)
    g = group_of_column(k)
    a1 = np.stack([x[:, g == q].sum(1) / (k / 8) for q in range(8)], 1)  # [m, 8]
    a2 = a1.mean(1)
    xs = x - (a2[:, None] - np.repeat(a1, k // 8, axis=1)) * s  # contiguous groups of k/8 columns
    m1 = xs.max(1)
    if not update:
        e = np.exp(xs - m1[:, None])
        return dict(z=e, mean=a2, sm=e.sum(1), mx=m1, em=None)
    mean = (a2 + inmean * (loop - 1)) / loop
    c = (a2 - mean) * s
    p = (inmean - mean) * s
    mx = np.maximum(c + m1, p + inmax)
    e = np.exp(xs - (mx - c)[:, None])
    em = np.exp(inmax - mx + p)
    return dict(z=e, mean=mean, sm=em * insum + e.sum(1), mx=mx, em=em)


def run(prog, m, k, update, seed=0, expect_ok=True, lo=0.0, hi=10.0, **kw):
    rng = np.random.default_rng(seed)
    x = rng.uniform(lo, hi, (m, k)).astype(np.float16)
    inmean = rng.uniform(2, 6, m).astype(np.float32)
    insum = rng.uniform(1, 50, m).astype(np.float32)
    inmax = rng.uniform(5, 15, m).astype(np.float32)
    res = prog.run("fv3", x=x.ravel(), inmean=np.repeat(inmean, 8), insum=np.repeat(insum, 8), inmax=np.repeat(inmax, 8),
                   m=m, k=k, update=update, expect_ok=expect_ok, **kw)
    return res, x, inmean.astype(np.float64), insum.astype(np.float64), inmax.astype(np.float64)


def check(res, ref, m, k, update):
    out = res.out("z", np.float16).reshape(m, k)
    ok = nkb_ok(out, ref["z"], np.float16)
    assert ok.all(), (out[~ok][:4], ref["z"][~ok][:4])
    for name in ("mean", "sm", "mx"):
        got = res.out(name, np.float32).reshape(m, 8)
        for j in range(8):  # one 32-byte block per row, all equal
            assert nkb_ok(got[:, j], ref[name], np.float32).all(), (name, got[:, j], ref[name])
    em = res.out("em", np.float16).reshape(m, 16)
    if update:
        for j in range(16):
            assert nkb_ok(em[:, j], ref["em"], np.float16).all(), (em[:, j], ref["em"])
    else:
        assert (em == np.float16(-7)).all()  # expMax is not written without update


@pytest.mark.parametrize("update,loop", [(0, 1), (1, 1), (1, 3)])
@pytest.mark.parametrize("m,k", [(8, 512), (16, 1024), (8, 2048)])
def test_flashv3_matches_the_documented_formula(prog, m, k, update, loop):
    res, x, inmean, insum, inmax = run(prog, m, k, update, seed=m + k + update + loop, loop=loop)
    check(res, reference(x, inmean, insum, inmax, update, loop), m, k, update)


def test_flashv3_other_alpha(prog):
    res, x, inmean, insum, inmax = run(prog, 8, 1024, 1, seed=3, loop=2, alpha=968890)
    check(res, reference(x, inmean, insum, inmax, 1, 2, alpha=0.96889), 8, 1024, 1)


def test_flashv3_alpha_zero_is_flash_softmax_over_two_blocks(prog):
    """With alpha = 0 the mean shift vanishes: block 1 without update and block 2 with update give
    the running max/sum of FlashAttention, so rescaled outputs equal torch.softmax over the whole row."""
    m, k = 8, 512
    rng = np.random.default_rng(7)
    full = rng.uniform(-4, 4, (m, 2 * k)).astype(np.float16)
    zeros = np.zeros(m * 8, np.float32)
    r1 = prog.run("fv3", x=full[:, :k].ravel(), inmean=zeros, insum=zeros, inmax=zeros, m=m, k=k, update=0, alpha=0)
    r2 = prog.run("fv3", x=full[:, k:].ravel(), inmean=r1.out("mean", np.float32), insum=r1.out("sm", np.float32),
                  inmax=r1.out("mx", np.float32), m=m, k=k, update=1, loop=2, alpha=0)
    s2 = r2.out("sm", np.float32).reshape(m, 8)[:, 0].astype(np.float64)
    em = r2.out("em", np.float16).reshape(m, 16)[:, 0].astype(np.float64)
    p1 = r1.out("z", np.float16).reshape(m, k).astype(np.float64) * em[:, None] / s2[:, None]
    p2 = r2.out("z", np.float16).reshape(m, k).astype(np.float64) / s2[:, None]
    ref = torch.softmax(torch.from_numpy(full.astype(np.float64)), -1).numpy()
    assert nkb_ok(np.concatenate([p1, p2], 1), ref, np.float16).all()
    np.testing.assert_array_equal(r2.out("mx", np.float32).reshape(m, 8)[:, 0], full.astype(np.float32).max(1))
    # the running mean after two blocks is the mean of both blocks' means
    np.testing.assert_allclose(r2.out("mean", np.float32).reshape(m, 8)[:, 0], full.astype(np.float64).mean(1), rtol=1e-5)


def test_flashv3_in_place_like_the_official_example(prog):
    """dst = src, mean = inMean, max = inMax, expSum = inExpSum: allowed; same results as out of place."""
    a, *_ = run(prog, 8, 1024, 1, seed=5, loop=2)
    b, *_ = run(prog, 8, 1024, 1, seed=5, loop=2, inplace=1)
    assert not b.errors and not b.warnings
    for name, dt in (("z", np.float16), ("mean", np.float32), ("sm", np.float32), ("mx", np.float32), ("em", np.float16)):
        np.testing.assert_array_equal(a.out(name, dt), b.out(name, dt))


def test_flashv3_shape_from_the_tensor_shape_info(prog):
    res, x, inmean, insum, inmax = run(prog, 8, 512, 1, seed=9, shapeinfo=1)
    check(res, reference(x, inmean, insum, inmax, 1), 8, 512, 1)


def test_flashv3_framework_tmp_and_split_rows(prog):
    # no sharedTmpBuffer; a workspace of 3 rows: the tiling splits the 16 rows into 3 + 3 + ... + 1
    row = (40 + 2 * 512 + 64) * 4
    res, x, inmean, insum, inmax = run(prog, 16, 512, 1, seed=11, tmp=0, work=3 * row)
    check(res, reference(x, inmean, insum, inmax, 1), 16, 512, 1)
    t = res.out("tiling", np.uint32)
    assert t[6] == 3 and t[12] == 5 and t[13] == 1  # splitM, rangeM, tailM


@pytest.mark.parametrize("kw,code", [
    (dict(m=8, k=256), "softmax-shape"),     # last axis below 512
    (dict(m=8, k=544), "softmax-shape"),     # not a multiple of 64
    (dict(m=4, k=512), "softmax-shape"),     # rows not a multiple of 8
    (dict(m=8, k=512, split=4), "softmax-params"),
    (dict(m=8, k=512, tmp=2048, work=(40 + 2 * 512 + 64) * 4), "adv-tmp-too-small"),
])
def test_flashv3_documented_limits_are_errors(prog, kw, code):
    m, k = kw.pop("m"), kw.pop("k")
    res, *_ = run(prog, m, k, 1, expect_ok=False, **kw)
    assert res.errors and res.errors[0].code == code, res.run.stderr
    if code == "adv-tmp-too-small":
        assert f"at least {(40 + 2 * 512 + 64) * 4}" in res.errors[0].message
        assert "adv_flashv3.cpp" in (res.errors[0].file or "")


def split_fields(m, k, blk, base):
    tail = m % base if base else 0
    return [m, k, m * k, m, blk, m * blk, base, k, base * k, base, blk, base * blk, m // base if base else 0, tail,
            tail * k, tail * blk]


@pytest.mark.parametrize("m,k,work_rows,base", [
    (8, 512, 1, 1), (16, 1024, 100, 16), (40, 512, 11.5, 8), (40, 512, 7, 7), (24, 2048, 24, 24),
])
def test_flashv3_host_sizes_and_tiling(prog, m, k, work_rows, base):
    row = 5 * 8 + 2 * k + 64  # floats: 5 blocks of float statistics, two rows of K, one repeat
    res = prog.run("fv3_host", m=m, k=k, ts1=2, ts2=4, work=int(work_rows * row * 4))
    t = res.out("tiling", np.uint32)
    assert list(t[16:]) == [row * 4, m * row * 4]
    np.testing.assert_array_equal(t[:16], split_fields(m, k, 8, base))


@pytest.mark.parametrize("ts1,ts2,k", [(4, 4, 512), (2, 2, 512), (2, 4, 520)])
def test_flashv3_host_rejects_other_types_and_unaligned_rows(prog, ts1, ts2, k):
    res = prog.run("fv3_host", m=8, k=k, ts1=ts1, ts2=ts2, work=1 << 20)
    assert "[softmax-tiling]" in res.run.stderr
    t = res.out("tiling", np.uint32)
    assert list(t[16:]) == [7, 7] and not t[:16].any()  # outputs left alone


def test_flashv3_tiling_overloads_agree(prog):
    res, *_ = run(prog, 16, 1024, 0, seed=1)
    t = res.out("tiling", np.uint32)
    np.testing.assert_array_equal(t[:16], t[16:32])
    np.testing.assert_array_equal(t[:16], split_fields(16, 1024, 8, 1))  # the minimum holds one row
