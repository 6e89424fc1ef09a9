"""High-level activations and SoftMax / SimpleSoftMax against torch, with the host tiling helpers
(SoftMaxTilingFunc, GetSoftMaxMin/MaxTmpSize) and the temporary-buffer rules."""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_activation.cpp")

ACTS = ["SIGMOID", "SILU", "SWISH", "GELU", "FASTERGELU", "SWIGLU", "GEGLU"]
MIN_TMP = {"SIGMOID": (256, 256), "GELU": (768, 768), "FASTERGELU": (768, 768), "SWIGLU": (6 * 256, 0),
           "GEGLU": (4 * 256, 0)}  # (half, float) bytes


def nkb_ok(out, ref, dtype):
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    err = np.abs(out.astype(np.float64) - ref)
    return ~((err > thr) & (err / np.maximum(np.abs(ref), 1e-30) > thr))


def act_reference(op, x, y, beta):
    t, u = torch.from_numpy(x.astype(np.float64)), torch.from_numpy(y.astype(np.float64))
    if op == "SIGMOID":
        return torch.sigmoid(t).numpy()
    if op == "SILU":
        return F.silu(t).numpy()
    if op == "SWISH":
        return (t * torch.sigmoid(beta * t)).numpy()
    if op == "GELU":
        return F.gelu(t, approximate="tanh").numpy()
    if op == "FASTERGELU":
        return (t * torch.sigmoid(1.702 * t)).numpy()
    if op == "SWIGLU":
        return (t * u * torch.sigmoid(beta * u)).numpy()
    if op == "GEGLU":
        return (t * F.gelu(u, approximate="tanh")).numpy()
    raise KeyError(op)


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("op", ACTS)
def test_activation_matches_torch(prog, op, dtype):
    rng = np.random.default_rng(ACTS.index(op))
    half = np.dtype(dtype).itemsize == 2
    for n, use_tmp in [(300, True), (77, False)]:
        length = (n + 64 + 127) // 128 * 128
        x = rng.uniform(-6, 6, length).astype(dtype)
        y = rng.uniform(-6, 6, length).astype(dtype)
        z0 = np.full(length, -55, dtype)
        beta = 1.3
        tmp = 0
        if op in MIN_TMP and use_tmp:
            tmp = MIN_TMP[op][0 if half else 1] or 32
        res = prog.run(f"act_{'f16' if half else 'f32'}", x=x, y=y, z=z0, n=n, tmp=tmp, op=ACTS.index(op),
                       s=np.array([beta], np.float32))
        out = res.out("z", dtype)
        ref = act_reference(op, x[:n], y[:n], float(np.float32(beta)) if op != "SWISH" else float(dtype(beta)))
        ok = nkb_ok(out[:n], ref, dtype)
        assert ok.all(), (op, n, x[:n][~ok][:4], out[:n][~ok][:4], ref[~ok][:4])
        np.testing.assert_array_equal(out[n:], z0[n:])


def test_gelu_is_the_tanh_form_not_erf(prog):
    """Distinguishes the documented tanh approximation from the exact erf GELU."""
    x = np.linspace(-3, 3, 256).astype(np.float32)
    res = prog.run("act_f32", x=x, y=x, z=np.zeros(256, np.float32), n=256, tmp=768, op=ACTS.index("GELU"),
                   s=np.zeros(1, np.float32))
    out = res.out("z", np.float32).astype(np.float64)
    tanh_form = F.gelu(torch.from_numpy(x.astype(np.float64)), approximate="tanh").numpy()
    erf_form = F.gelu(torch.from_numpy(x.astype(np.float64))).numpy()
    assert np.max(np.abs(out - tanh_form)) < 1e-6
    assert np.max(np.abs(out - erf_form)) > 1e-4


def test_activation_tmp_too_small(prog):
    x = np.zeros(128, np.float16)
    res = prog.run("act_f16", x=x, y=x, z=x, n=128, tmp=512, op=ACTS.index("GELU"), s=np.zeros(1, np.float32),
                   expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"


# ---- SoftMax ------------------------------------------------------------------------------------

def softmax_run(prog, case, m, k, ok=0, tmp=-1, simple=0, nosumax=0, seed=0, x=None, sm=None, mx=None):
    dt = np.float32 if case == "softmax_f32" else np.float16
    ut = np.float16 if case == "softmax_f16" else np.float32
    blk = 32 // np.dtype(ut).itemsize
    rng = np.random.default_rng(seed)
    if x is None:
        x = (rng.standard_normal((m, k)) * 3).astype(dt)
    if sm is None:
        sm = np.zeros((m, blk), ut)
    if mx is None:
        mx = np.zeros((m, blk), ut)
    res = prog.run(case, x=x.ravel(), sm=sm.ravel(), mx=mx.ravel(), m=m, k=k, ok=ok, tmp=tmp, simple=simple,
                   nosumax=nosumax, expect_ok=(tmp != 8))
    return res, x, dt, ut, blk


@pytest.mark.parametrize("case", ["softmax_f32", "softmax_f16", "softmax_f16_f32"])
@pytest.mark.parametrize("m,k,ok", [(4, 64, 0), (13, 32, 0), (8, 128, 100), (3, 16 * 17, 250)])
def test_softmax_matches_torch(prog, case, m, k, ok):
    if case != "softmax_f32" and k % 16:
        pytest.skip("half needs k a multiple of 16")
    if case == "softmax_f32" and k % 8:
        pytest.skip()
    res, x, dt, ut, blk = softmax_run(prog, case, m, k, ok=ok)
    valid = ok or k
    xv = torch.from_numpy(x[:, :valid].astype(np.float64))
    ref = torch.softmax(xv, dim=-1).numpy()
    out = res.out("z", dt).reshape(m, k)[:, :valid]
    assert nkb_ok(out, ref, dt).all()
    sm = res.out("sm", ut).reshape(m, blk)
    mx = res.out("mx", ut).reshape(m, blk)
    ref_max = xv.max(dim=-1).values.numpy()
    ref_sum = torch.exp(xv - xv.max(dim=-1, keepdim=True).values).sum(dim=-1).numpy()
    for j in range(blk):  # every element of the row's block holds the row's value
        np.testing.assert_array_equal(mx[:, j], ref_max.astype(ut))
        assert nkb_ok(sm[:, j], ref_sum, ut).all()


def test_simple_softmax_uses_given_max_and_sum(prog):
    m, k = 5, 64
    rng = np.random.default_rng(3)
    x = rng.standard_normal((m, k)).astype(np.float32)
    mx = np.repeat(rng.uniform(0, 1, (m, 1)), 8, axis=1).astype(np.float32)
    sm = np.repeat(rng.uniform(5, 10, (m, 1)), 8, axis=1).astype(np.float32)
    res, *_ = softmax_run(prog, "softmax_f32", m, k, simple=1, x=x, sm=sm, mx=mx)
    out = res.out("z", np.float32).reshape(m, k)
    ref = np.exp(x.astype(np.float64) - mx[:, :1]) / sm[:, :1]
    assert nkb_ok(out, ref, np.float32).all()


def test_softmax_without_sum_max_and_framework_tmp(prog):
    res, x, *_ = softmax_run(prog, "softmax_f32", 6, 64, tmp=0, nosumax=1)
    ref = torch.softmax(torch.from_numpy(x.astype(np.float64)), -1).numpy()
    assert nkb_ok(res.out("z", np.float32).reshape(6, 64), ref, np.float32).all()


def test_softmax_tmp_below_minimum_is_an_error(prog):
    res, *_ = softmax_run(prog, "softmax_f32", 4, 64, tmp=8)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    assert "at least 544" in res.errors[0].message  # (8 + 64 + 64) * 4


@pytest.mark.parametrize("case,m,k,tmp,exp", [
    # (m, k) -> srcM srcK srcSize outMaxM outMaxK outMaxSize splitM splitK splitSize reduceM reduceK reduceSize
    #           rangeM tailM tailSplitSize tailReduceSize | min max basicBlock
    ("softmax_f32", 4, 64, -1, [4, 64, 256, 4, 8, 32, 1, 64, 64, 1, 8, 8, 4, 0, 0, 0, 544, 2176, 1]),
    ("softmax_f32", 20, 64, 20 * 544, [20, 64, 1280, 20, 8, 160, 20, 64, 1280, 20, 8, 160, 1, 0, 0, 0, 544, 10880, 1]),
    ("softmax_f32", 20, 64, 11 * 544, [20, 64, 1280, 20, 8, 160, 8, 64, 512, 8, 8, 64, 2, 4, 256, 32, 544, 10880, 0]),
    ("softmax_f16", 16, 256, -1, [16, 256, 4096, 16, 16, 256, 1, 256, 256, 1, 16, 16, 16, 0, 0, 0, 1344, 21504, 1]),
])
def test_softmax_tiling_func(prog, case, m, k, tmp, exp):
    res, *_ = softmax_run(prog, case, m, k, tmp=tmp)
    np.testing.assert_array_equal(res.out("tiling", np.uint32), np.array(exp, np.uint32))


def test_adjust_softmax_res_rewrites_rows_whose_max_matches(prog):
    m, k = 4, 64
    res = np.arange(m * k, dtype=np.float32).reshape(m, k) / 100
    mx = np.repeat(np.array([[1.0], [-3.4028235e38], [2.0], [-3.4028235e38]], np.float32), 8, axis=1)
    from_bits = int(np.float32(-3.4028235e38).view(np.uint32))
    out = prog.run("adjust", res=res.ravel(), mx=mx.ravel(), m=m, k=k, **{"from": from_bits})
    got = out.out("res", np.float32).reshape(m, k)
    exp = res.copy()
    exp[[1, 3]] = 9.0
    np.testing.assert_array_equal(got, exp)
    assert out.out("flag", np.int32)[0] == 1


def test_activation_host_sizes(prog):
    got = prog.run("host_act_sizes").out("sizes", np.uint32).reshape(-1, 2)
    exp = []
    for n in (16, 1000):
        for ts in (2, 4):
            one = max(n * ts, 256)
            exp += [(one, 256), (3 * one, 768), ((6 * one, 6 * 256) if ts == 2 else (0, 0)),
                    ((4 * one, 4 * 256) if ts == 2 else (0, 0)), (0, 0)]
    np.testing.assert_array_equal(got, np.array(exp, np.uint32))
