"""AscendQuant / AscendDequant / AscendAntiQuant against the documented arithmetic (re-derived here
with numpy/torch) and their temporary-size helpers."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_quant.cpp")


def up(v, a):
    return (v + a - 1) // a * a


# ---- AscendQuant -----------------------------------------------------------------------------------

def quant_reference(x, scale, offset):
    """Documented: src, scale, offset to half; Mul then Add in half; Cast to int8 rounding half to even."""
    h = x.astype(np.float16)
    y = (h * scale.astype(np.float16)).astype(np.float16)
    z = (y + offset.astype(np.float16)).astype(np.float16)
    return np.clip(np.rint(z.astype(np.float32)), -128, 127).astype(np.int8)


@pytest.mark.parametrize("case,dt", [("quant_f32", np.float32), ("quant_f16", np.float16)])
@pytest.mark.parametrize("mode,ch", [(0, 0), (1, 16), (2, 32)])
@pytest.mark.parametrize("n,tmp", [(256, -1), (96, 0)])
def test_ascend_quant(prog, case, dt, mode, ch, n, tmp):
    if mode and (n % ch or (ch * np.dtype(dt).itemsize) % 32):
        pytest.skip()
    rng = np.random.default_rng(n + mode)
    x = (rng.standard_normal(n) * 20).astype(dt)
    x[:4] = [2.5, 3.5, -2.5, 1000]  # ties to even, and saturation
    c = max(ch, 16)
    sc = rng.uniform(0.5, 2, c).astype(dt)
    of = rng.uniform(-3, 3, c).astype(dt)
    so = np.array([1.5, 0.5], np.float32)
    if mode == 0:
        sc[:] = 1.0
        so = np.array([1.0, 0.0], np.float32)
    res = prog.run(case, x=x, sc=sc, of=of, so=so, n=n, ch=ch, mode=mode, tmp=tmp)
    y = res.out("y", np.int8)
    if mode == 0:
        exp = quant_reference(x, np.full(n, so[0]), np.full(n, so[1]))
        assert list(y[:4]) == [2, 4, -2, 127]
    else:
        scale = np.tile(sc[:ch], n // ch)
        offset = np.tile(of[:ch], n // ch) if mode == 2 else np.full(n, np.float32(so[1]).astype(dt))
        exp = quant_reference(x, scale, offset)
    np.testing.assert_array_equal(y, exp)
    # torch cross-check: within one step of round(x * scale + offset)
    if mode:
        ref = torch.clamp(torch.round(torch.from_numpy(x.astype(np.float64) * scale.astype(np.float64) +
                                                       offset.astype(np.float64))), -128, 127).numpy()
        assert np.abs(y.astype(np.float64) - ref).max() <= 1


def test_ascend_quant_in_place_and_misuse(prog):
    x = np.arange(64, dtype=np.float16) - 32
    ones = np.ones(16, np.float16)
    a = prog.run("quant_f16", x=x, sc=ones, of=ones, so=np.array([2, 1], np.float32), n=64, ch=0, mode=0, tmp=-1)
    b = prog.run("quant_f16", x=x, sc=ones, of=ones, so=np.array([2, 1], np.float32), n=64, ch=0, mode=0, tmp=-1, inplace=1)
    np.testing.assert_array_equal(a.out("y", np.int8), b.out("y", np.int8))
    assert not b.warnings
    bad = prog.run("quant_f16", x=x, sc=ones, of=ones, so=np.array([2, 1], np.float32), n=48, ch=0, mode=0, tmp=-1,
                   expect_ok=False)
    assert bad.errors and bad.errors[0].code == "quant-count"
    small = prog.run("quant_f16", x=x, sc=ones, of=ones, so=np.array([2, 1], np.float32), n=64, ch=0, mode=0, tmp=256,
                     expect_ok=False)
    assert small.errors and small.errors[0].code == "adv-tmp-too-small"


@pytest.mark.parametrize("n,ts", [(64, 2), (1000, 4), (512, 2)])
def test_ascend_quant_sizes(prog, n, ts):
    case = "quant_f16" if ts == 2 else "quant_f32"
    got = prog.run(case, n=n, ch=0, hostonly=1).out("sizes", np.uint32)
    assert list(got) == [512, up(max(2 * n, 512), 32), 2, 0]


# ---- AscendDequant ---------------------------------------------------------------------------------

DQ = {"dequant_f32_f32": (np.float32, np.float32), "dequant_f16_f32": (np.float16, np.float32),
      "dequant_bf16_bf16": ("bf16", "bf16")}


def to_np(arr, kind):
    if kind == "bf16":
        return torch.from_numpy(np.asarray(arr, np.float32)).to(torch.bfloat16).view(torch.int16).numpy()
    return np.asarray(arr, kind)


def from_np(raw, kind):
    if kind == "bf16":
        return torch.from_numpy(raw.view(np.int16).copy()).view(torch.bfloat16).float().numpy()
    return raw.astype(np.float32)


@pytest.mark.parametrize("case", list(DQ))
@pytest.mark.parametrize("m,n,c,vec,single", [(4, 16, 16, 1, 1), (3, 24, 10, 1, 0), (5, 8, 8, 0, 0), (1, 32, 8, 1, 1)])
def test_ascend_dequant(prog, case, m, n, c, vec, single):
    dk, sk = DQ[case]
    dsize = 4 if dk == np.float32 else 2
    rng = np.random.default_rng(m * n + c)
    x = rng.integers(-5000, 5000, (m, n)).astype(np.int32)
    sc = rng.uniform(0.001, 0.01, n).astype(np.float32)
    s = np.float32(0.0037)
    res = prog.run(case, x=x.ravel(), sc=to_np(sc, sk), s=np.array([s], np.float32), m=m, n=n, c=c, vec=vec,
                   single=single, tmp=-1)
    scale_eff = from_np(to_np(sc, sk), sk) if vec else np.full(n, from_np(to_np([s], sk), sk)[0])
    # documented single-row regrouping: {1, n, c} -> {n / c, c, c} when c is a multiple of a block of dstT
    if single and m == 1 and c % (32 // dsize) == 0 and n % c == 0:
        xm, mm, nn, cc = x.reshape(n // c, c), n // c, c, c
    else:
        xm, mm, nn, cc = x, m, n, c
    nd = up(nn, 32 // dsize)
    ydt = np.int16 if dk == "bf16" else dk
    y = from_np(res.out("y", ydt), dk).reshape(-1)[:mm * nd].reshape(mm, nd)
    ref = xm[:, :cc].astype(np.float64) * scale_eff[:cc].astype(np.float64)
    exp = from_np(to_np(xm[:, :cc].astype(np.float32) * scale_eff[:cc], dk), dk)
    np.testing.assert_array_equal(y[:, :cc], exp)  # float multiply, one rounding to dstT
    assert np.allclose(y[:, :cc], ref, rtol=1e-2 if dk == "bf16" else 1e-3)
    assert (y[:, cc:] == -7).all()  # the rest of each row is not written


@pytest.mark.parametrize("m,n", [(4, 16), (1, 64), (7, 40)])
def test_ascend_dequant_sizes(prog, m, n):
    got = prog.run("dequant_f32_f32", m=m, n=n, hostonly=1).out("sizes", np.uint32)
    assert list(got) == [(64 + n + n + 8) * 4, (64 + m * n + n + 8) * 4, 1, 8 + 64 + n]


# ---- AscendAntiQuant -------------------------------------------------------------------------------

AQ = {"antiquant_f16": np.float16, "antiquant_bf16": "bf16"}


@pytest.mark.parametrize("case", list(AQ))
@pytest.mark.parametrize("tr", [0, 1])
@pytest.mark.parametrize("mode", [0, 1, 2, 3])
@pytest.mark.parametrize("k,nn,groups,fromtensor", [(64, 32, 1, 0), (64, 64, 4, 0), (64, 32, 2, 1)])
def test_ascend_antiquant(prog, case, tr, mode, k, nn, groups, fromtensor):
    ok = AQ[case]
    rng = np.random.default_rng(k + nn + mode + tr)
    shape = (nn, k) if tr else (k, nn)
    x = rng.integers(-128, 128, shape).astype(np.int8)
    ph, pw = (nn, groups) if tr else (groups, nn)
    of = rng.uniform(-4, 4, (ph, pw)).astype(np.float32)
    sc = rng.uniform(0.01, 0.1, (ph, pw)).astype(np.float32)
    os = np.array([1.5, 0.03125], np.float32)
    res = prog.run(case, x=x.ravel(), of=to_np(of.ravel(), ok), sc=to_np(sc.ravel(), ok), os=os, k=k, nn=nn, tr=tr,
                   mode=mode, ph=ph, pw=pw, tmp=-1, fromtensor=fromtensor)
    ydt = np.int16 if ok == "bf16" else ok
    y = from_np(res.out("y", ydt), ok)[:k * nn].reshape(shape)
    ofe, sce = from_np(to_np(of.ravel(), ok), ok).reshape(ph, pw), from_np(to_np(sc.ravel(), ok), ok).reshape(ph, pw)
    gs = k // groups
    if mode <= 1:  # per channel: parameter row i // gs (not transposed) or column j // gs (transposed)
        if tr:
            S = np.repeat(sce, gs, axis=1)
            O = np.repeat(ofe, gs, axis=1) if mode == 0 else np.zeros_like(S)
        else:
            S = np.repeat(sce, gs, axis=0)
            O = np.repeat(ofe, gs, axis=0) if mode == 0 else np.zeros_like(S)
    else:
        S = np.full(shape, from_np(to_np([os[1]], ok), ok)[0])
        O = np.full(shape, from_np(to_np([os[0]], ok), ok)[0]) if mode == 2 else np.zeros(shape)
    xf = x.astype(np.float32)
    if ok == np.float16:  # documented half arithmetic: the add, then the multiply, each rounded to half
        exp = ((xf + O.astype(np.float32)).astype(np.float16) * S.astype(np.float16)).astype(np.float16).astype(np.float32)
    else:
        exp = from_np(to_np((xf + O.astype(np.float32)) * S.astype(np.float32), ok), ok)
    np.testing.assert_array_equal(y, exp)
    ref = (x.astype(np.float64) + O) * S
    assert np.allclose(y, ref, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("case,tr,mode,k,nn,groups", [("antiquant_f16", 0, 0, 64, 32, 1), ("antiquant_bf16", 0, 0, 64, 32, 1),
                                                      ("antiquant_bf16", 1, 0, 64, 32, 2), ("antiquant_bf16", 0, 2, 64, 32, 1)])
def test_ascend_antiquant_sizes(prog, case, tr, mode, k, nn, groups):
    ph, pw = (nn, groups) if tr else (groups, nn)
    got = list(prog.run(case, k=k, nn=nn, tr=tr, mode=mode, ph=ph, pw=pw, hostonly=1).out("sizes", np.uint32))
    if case == "antiquant_f16":
        assert got == [0, 0, 0, 0]
    elif mode == 2:  # per tensor
        assert got == [1024, k * nn * 4, 1, 0]
    elif tr:
        assert got == [80 * ph * pw * 4, 80 * ph * pw * 4, 0, 80 * ph * pw * 4]
    else:
        v = ph * pw * 2 * 4 + 64 * k * 4
        assert got == [v, v, 0, v]
