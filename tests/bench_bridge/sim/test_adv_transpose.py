"""The high-level Transpose / ConfusionTranspose (dav-2201 scenarios 1-7) against numpy reshapes and
transposes of NZ/ND layouts, with GetTransposeTilingInfo / GetTransposeMaxMinTmpSize checked against the
documented rules (re-derived here) and a hand-computed tiling for the documentation's own example."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_transpose.cpp")
TYPES = {"ct_f16": np.float16, "ct_f32": np.float32, "ct_i16": np.int16, "ct_i32": np.int32}


def a16(x):
    return (x + 15) // 16 * 16


def rnd(dt, shape, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iu":
        return rng.integers(-3000, 3000, shape).astype(dt)
    return (rng.standard_normal(shape) * 100).astype(dt)


def nz(m):
    """[..., R, C] (C a multiple of 16) -> NZ [..., C/16, R, 16], flattened."""
    *lead, r, c = m.shape
    return np.ascontiguousarray(np.moveaxis(m.reshape(*lead, r, c // 16, 16), -2, -3)).reshape(-1)


def case_data(t, dims, dt, seed):
    """(source, expected destination) for TransposeType t on srcShape dims, both flat."""
    if t in (1, 2):
        B, A1, A2, A3 = dims
        p = rnd(dt, (B, A1, a16(A2), a16(A3)), seed)     # the padded block moves as a whole
        src = nz(p)
        out = p.transpose(0, 2, 1, 3)                     # [B, alignA2, A1, alignA3]
        return src, (out.reshape(-1) if t == 1 else nz(out))
    if t in (3, 4):
        B, N, S, hn = dims
        H, aS, aH, ahn = N * hn, a16(S), a16(N * hn), a16(hn)
        merged = rnd(dt, (B, aS, aH), seed)
        split = np.zeros((B, aS, N, ahn), dt)
        split[..., :hn] = merged[:, :, :H].reshape(B, aS, N, hn)
        split = split.transpose(0, 2, 1, 3)               # [B, N, alignS, alignHnDiv], zero padding
        return nz(merged), (nz(split) if t == 3 else split.reshape(-1))
    if t in (5, 6):
        B, N, S, hn = dims
        H, aS, aH, ahn = N * hn, a16(S), a16(N * hn), a16(hn)
        split = rnd(dt, (B, N, aS, ahn), seed)
        merged = np.zeros((B, aS, aH), dt)
        merged[:, :, :H] = split[..., :hn].transpose(0, 2, 1, 3).reshape(B, aS, H)
        return nz(split), (merged.reshape(-1) if t == 5 else nz(merged))
    H, W = dims
    x = rnd(dt, (H, W), seed)
    return x.reshape(-1), x.T.reshape(-1)


def tiling_rule(t, dims, stack, ts):
    e = 32 // ts
    p = [0] * 18
    if t in (1, 2):
        B, A1, A2, A3 = dims
        pop = stack // ts // 256 * 256
        a2, a3 = a16(A2), a16(A3)
        need = a2 * 16
        p[:16] = [e, B, A1, a3, a2, a3 // 16, pop, pop // 16, need, need // pop, need % pop, a2 * a3, A1 * a2 * a3, A1 * a3,
                  A1 * 16, pop // 16 * (need // pop) * A1 * a3]
    elif t in (3, 4, 5, 6):
        B, N, S, hn = dims
        H = N * hn
        hb, sb, hnb = a16(H) // 16, a16(S) // 16, a16(hn) // 16
        ahn = hnb * 16
        if t == 3:
            p[:17] = [e, B, N, hn, 16 // e, H, hb, sb, hb * 16, sb * 16, hnb, ahn, ahn - hn, sb * 256, N * hnb,
                      N * ahn * sb * 16, hb * sb * 256]
        elif t == 4:
            p[:18] = [e, B, N, hn, H, hb, sb, hnb, ahn, ahn - hn, sb * 256, N * hnb, sb * 16 * ahn, ahn * 16, ahn * e,
                      N * ahn * sb * 16, hb * sb * 256, 16 // e]
        else:
            p[:15] = [e, B, N, hn, H, hb, sb, hnb, hb * 16, sb * 256, hb * 256, e * hb * 16, N * hnb * 256 * sb,
                      hb * 256 * sb, 16 // e]
    else:
        H, W = dims
        p[:6] = [e, H, W, H // 16, H * e * ts // 32, W // e]
    return p


SHAPES = [(1, (1, 2, 64, 32), -1), (1, (2, 3, 20, 24), -1), (1, (1, 2, 48, 16), 4096), (2, (1, 16, 32, 32), -1),
          (2, (2, 4, 17, 40), -2), (3, (1, 2, 32, 16), -1), (3, (2, 3, 20, 24), -1), (4, (1, 2, 32, 16), -1),
          (4, (1, 4, 16, 40), -1), (5, (1, 2, 32, 16), -1), (5, (2, 3, 20, 8), -1), (6, (1, 2, 32, 16), -1),
          (6, (1, 4, 16, 40), -1), (7, (16, 32), -1), (7, (48, 16), -1)]


@pytest.mark.parametrize("case", list(TYPES))
@pytest.mark.parametrize("t,dims,stack", SHAPES)
def test_transpose_scenarios(prog, case, t, dims, stack):
    dt = TYPES[case]
    ts = np.dtype(dt).itemsize
    src, ref = case_data(t, dims, dt, sum(dims) + t)
    kw = {f"d{i}": d for i, d in enumerate(dims)}
    res = prog.run(case, x=src, type=t, rank=len(dims), stack=stack, ns=src.size, nd=ref.size, old=t % 2, **kw)
    np.testing.assert_array_equal(res.out("y", dt)[:ref.size], ref)
    mn, mx, mn2, mx2 = res.out("sizes", np.uint32).tolist()
    exp = (0, 0) if t == 7 else ((256 * ts, a16(dims[2]) * 16 * ts) if t in (1, 2) else (512 * ts, 512 * ts))
    assert (mn, mx) == exp and (mn2, mx2) == exp
    stack_b = {-1: mn, -2: mx}.get(stack, stack)
    tl = res.out("tiling", np.uint32).tolist()
    assert tl == tiling_rule(t, dims, stack_b, ts)
    assert res.out("tiling_direct", np.uint32).tolist() == tl == res.out("tiling_only", np.uint32).tolist()


def test_tiling_of_the_documented_example(prog):
    """B=1, N=2, S=64, H/N=32 half, NZ2ND_0213 with the minimum buffer, computed by hand."""
    res = prog.run("ct_f16", type=1, rank=4, d0=1, d1=2, d2=64, d3=32, stack=-1, hostonly=1)
    assert res.out("sizes", np.uint32).tolist()[:2] == [512, 2048]   # 256 * 2; 64 * 16 * 2
    # blockSize 16, B 1, A1 2, alignA3 32, alignA2 64, 2 column blocks, newPopSize 256 (512 B / 2),
    # newPopH 16, needSize 1024, 4 main blocks, no tail, 2048, 4096, 64, 32, mainOffset 16 * 4 * 64
    assert res.out("tiling", np.uint32).tolist()[:16] == [16, 1, 2, 32, 64, 2, 256, 16, 1024, 4, 0, 2048, 4096, 64, 32, 4096]


def test_nd2nd_only_through_the_older_names(prog):
    """ConfusionTranspose + GetConfusionTransposeOnlyTilingInfo, the names older kernels use."""
    dt = np.float32
    src, ref = case_data(7, (32, 16), dt, 5)
    res = prog.run("ct_f32", x=src, type=7, rank=2, d0=32, d1=16, stack=0, tmp=0, ns=512, nd=512, old=1)
    np.testing.assert_array_equal(res.out("y", dt)[:512], ref)
    assert res.out("tiling", np.uint32).tolist()[:6] == [8, 32, 16, 2, 32, 2]  # e, H, W, H/16, H*e*4/32, W/e


@pytest.mark.parametrize("kw,code", [
    (dict(type=7, rank=2, d0=24, d1=16, ns=384, nd=384), "transpose-shape"),           # H not a multiple of 16
    (dict(type=1, rank=4, d0=1, d1=2, d2=32, d3=16, stack=-1, tmp=256, ns=1024, nd=1024), "adv-tmp-too-small"),
    (dict(type=1, rank=4, d0=1, d1=2, d2=32, d3=16, stack=256, tmp=0, ns=1024, nd=1024), "transpose-tiling"),  # < 512 B
    (dict(type=13, rank=3, d0=2, d1=16, d2=16, stack=0, tmp=0, ns=512, nd=512), "api-unsupported"),  # Ascend 950 only
    (dict(type=11, rank=4, d0=1, d1=16, d2=16, d3=16, stack=0, tmp=0, ns=4096, nd=4096), "api-unsupported"),
])
def test_misuse_is_a_located_error(prog, kw, code):
    x = np.zeros(kw["ns"], np.float16)
    res = prog.run("ct_f16", x=x, expect_ok=False, **kw)
    assert res.errors and res.errors[0].code == code, res.run.stderr
    assert res.errors[0].file.endswith("adv_transpose.cpp")


def test_tiling_for_another_type_is_rejected(prog):
    """A tiling whose param0 (elements per block) says half, used on float data."""
    x = np.zeros(256, np.float32)
    res = prog.run("ct_f32", x=x, type=7, rank=2, d0=16, d1=16, stack=0, tmp=0, ns=256, nd=256, force_e=16, expect_ok=False)
    assert res.errors and res.errors[0].code == "transpose-tiling", res.run.stderr


# ---- TransData -------------------------------------------------------------------------------------
TD = {"td_f16": np.float16, "td_i16": np.int16}


def td_case(mode, n, c, d, h, w, dt, seed):
    """(source, expected destination) of TransData `mode` for an [n, c, d, h, w] tensor, flat, with the
    documented UB layouts: NCDHW rows of H*W padded to 16, channels (and FRACTAL_Z_3D batches) padded to 16."""
    hw, p, c1, n1 = h * w, a16(h * w), a16(c) // 16, a16(n) // 16
    x = rnd(dt, (n, c, d, hw), seed)
    nc = np.zeros((n, c, d, p), dt)
    nc[..., :hw] = x
    xp = np.zeros((n1 * 16, c1 * 16, d, hw), dt)
    xp[:n, :c] = x
    ndc = xp[:n].reshape(n, c1, 16, d, hw).transpose(0, 3, 1, 4, 2)            # n, d, c1, hw, c0
    fz = xp.reshape(n1, 16, c1, 16, d, hw).transpose(4, 2, 5, 0, 1, 3)         # d, c1, hw, n1, n0, c0
    if mode in (1, 3):
        junk = nc.copy()
        junk[..., hw:] = 77                                                     # padding the API must ignore
        return junk.reshape(-1), (ndc if mode == 1 else fz).reshape(-1)
    return (ndc if mode == 2 else fz).reshape(-1), nc.reshape(-1)              # output padding: 0 here


def td_tmp(mode, n, c, d, h, w):
    p, c1, n1 = a16(h * w), a16(c) // 16, a16(n) // 16
    if mode == 1:
        return (d * p + d * c1 * 16 * p) * 2
    if mode == 2:
        return d * c1 * 16 * p * 2 + 512
    if mode == 3:
        return max(c * d * p * 2, d * h * w * n1 * 16 * 2) + n1 * 16 * d * c1 * 16 * p * 2
    one = n1 * 16 * c1 * 16 * d * p * 2
    return one if (n % 16 == 0 and c % 16 == 0) else 2 * one


@pytest.mark.parametrize("case", list(TD))
@pytest.mark.parametrize("mode", [1, 2, 3, 4])
@pytest.mark.parametrize("n,c,d,h,w", [(16, 16, 1, 3, 5), (2, 20, 2, 4, 4), (17, 5, 1, 2, 7)])
def test_transdata(prog, case, mode, n, c, d, h, w):
    dt = TD[case]
    src, ref = td_case(mode, n, c, d, h, w, dt, n + c + mode)
    res = prog.run(case, x=src, mode=mode, n=n, c=c, d=d, h=h, w=w, ns=src.size, nd=ref.size)
    np.testing.assert_array_equal(res.out("y", dt)[:ref.size], ref)
    ok, bad, mn, mx = res.out("sizes", np.uint32).tolist()
    assert ok == 1 and bad == 0 and mn == mx == td_tmp(mode, n, c, d, h, w)


def test_transdata_documented_example_sizes(prog):
    """[1, 32, 2, 2, 8] half NCDHW -> NDC1HWC0 (the page's example): P = 16, C1 = 2, by hand
    (2 * 16 + 2 * 2 * 16 * 16) * 2 = 2112 bytes."""
    res = prog.run("td_f16", mode=1, n=1, c=32, d=2, h=2, w=8, hostonly=1)
    assert res.out("sizes", np.uint32).tolist() == [1, 0, 2112, 2112]


@pytest.mark.parametrize("kw,code", [
    (dict(mode=1, n=2, c=20, d=1, h=2, w=8, c1fix=1), "transdata-shape"),     # C1 does not match C
    (dict(mode=1, n=2, c=20, d=1, h=2, w=8, tmp=512), "adv-tmp-too-small"),
])
def test_transdata_misuse(prog, kw, code):
    n, c, d, h, w = (kw[k] for k in "ncdhw")
    src, ref = td_case(kw["mode"], n, c, d, h, w, np.float16, 1)
    res = prog.run("td_f16", x=src, ns=src.size, nd=ref.size * 2, expect_ok=False, **kw)
    assert res.errors and res.errors[0].code == code, res.run.stderr
    assert res.errors[0].file.endswith("adv_transpose.cpp")
