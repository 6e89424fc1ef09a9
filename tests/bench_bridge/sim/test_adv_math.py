"""High-level math APIs (Sin ... Power, Fmod, Clamp, Axpy, Xor) against torch references computed in
float64 from the same (16-bit rounded) inputs, with NPUKernelBench's precision rule, over half and
float, non-aligned lengths, both temporary-buffer forms, and the documented temp-size rules."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("adv_math.cpp")

OPS = ["SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "SINH", "COSH", "TANH", "ASINH", "ACOSH", "ATANH", "ERF", "ERFC",
       "CEIL", "FLOOR", "ROUND", "TRUNC", "FRAC", "SIGN", "LOG", "LOG2", "LOG10", "EXP0", "EXP3", "EXP12",
       "POW_TT", "POW_TS", "POW_ST", "FMOD", "CLAMPMAX", "CLAMPMIN", "AXPY", "XOR", "INPLACE_SIN", "INPLACE_TRUNC"]
OP = {name: i for i, name in enumerate(OPS)}
SENTINEL = -77.0

# live nodes (half, float) of the documented temp-size rules; min bytes = nodes * 256
NODES = {"SIN": (8, 3), "COS": (8, 3), "TAN": (10, 4), "ASIN": (6, 2), "ACOS": (6, 2), "ATAN": (12, 5), "SINH": (4, 1),
         "COSH": (6, 2), "TANH": (4, 1), "ASINH": (3, 3), "ACOSH": (2, 1), "ATANH": (4, 1), "ERF": (8, 3),
         "ERFC": (16, 7), "CEIL": (2, 1), "FLOOR": (2, 0), "ROUND": (1, 0), "TRUNC": (2, 1), "FRAC": (4, 0),
         "SIGN": (3, 3), "LOG": (0, 0), "LOG2": (1, 0), "LOG10": (0, 0), "FMOD": (8, 1), "AXPY": (4, 1), "XOR": (1, 1)}


def min_tmp(op: str, dtype) -> int:
    half = np.dtype(dtype).itemsize == 2
    if op.startswith("EXP"):
        return (4 if half else 3) * 256
    if op.startswith("CLAMP"):
        return 128 if half else 64
    if op.startswith("POW"):
        tt = op == "POW_TT"
        if np.dtype(dtype).kind == "i":
            return 256 * (6 if tt else 7)
        return 256 * (14 if tt else 14) // 2 + 256 if half else 256 * (4 if tt else 5) + 256
    if op == "LOG2":
        return 256 if half else 0
    h, f = NODES[op.replace("INPLACE_", "")]
    return 256 * (h if half else f)


def exp_taylor(x: np.ndarray, level: int) -> np.ndarray:
    ip = np.floor(x)
    f = x - ip
    term = np.ones_like(x)
    s = np.ones_like(x)
    for k in range(1, level + 1):
        term = term * f / k
        s = s + term
    return np.exp(ip) * s


def reference(op: str, x: np.ndarray, y: np.ndarray, z: np.ndarray, s: float) -> np.ndarray:
    """float64 reference on the exact input values."""
    t = torch.from_numpy(x.astype(np.float64))
    u = torch.from_numpy(y.astype(np.float64))
    fns = {
        "SIN": torch.sin, "COS": torch.cos, "TAN": torch.tan, "ASIN": torch.asin, "ACOS": torch.acos,
        "ATAN": torch.atan, "SINH": torch.sinh, "COSH": torch.cosh, "TANH": torch.tanh, "ASINH": torch.asinh,
        "ACOSH": torch.acosh, "ATANH": torch.atanh, "ERF": torch.erf, "ERFC": torch.erfc, "CEIL": torch.ceil,
        "FLOOR": torch.floor, "ROUND": torch.round, "TRUNC": torch.trunc, "FRAC": torch.frac, "SIGN": torch.sign,
        "LOG": torch.log, "LOG2": torch.log2, "LOG10": torch.log10, "EXP0": torch.exp, "EXP12": torch.exp,
    }
    if op in fns:
        return fns[op](t).numpy()
    if op == "EXP3":
        return exp_taylor(x.astype(np.float64), 3)
    if op == "POW_TT":
        return torch.pow(t, u).numpy()
    if op == "POW_TS":
        return torch.pow(t, s).numpy()
    if op == "POW_ST":
        return torch.pow(torch.tensor(s, dtype=torch.float64), u).numpy()
    if op == "FMOD":
        return torch.fmod(t, u).numpy()
    if op == "CLAMPMAX":
        return torch.clamp(t, max=s).numpy()
    if op == "CLAMPMIN":
        return torch.clamp(t, min=s).numpy()
    if op == "AXPY":
        return z.astype(np.float64) + x.astype(np.float64) * s
    raise KeyError(op)


def inputs(op: str, n: int, dtype, rng):
    u = lambda lo, hi: rng.uniform(lo, hi, n)  # noqa: E731
    dom = {"ASIN": (-0.99, 0.99), "ACOS": (-0.99, 0.99), "ATANH": (-0.95, 0.95), "ACOSH": (1.0, 20.0),
           "TAN": (-1.4, 1.4), "SINH": (-6, 6), "COSH": (-6, 6), "LOG": (0.01, 300), "LOG2": (0.01, 300),
           "LOG10": (0.01, 300), "EXP0": (-8, 8), "EXP3": (-8, 8), "EXP12": (-8, 8), "ERF": (-3, 3), "ERFC": (-2, 3),
           "POW_TT": (0.1, 4.0), "POW_TS": (0.1, 4.0), "TANH": (-5, 5)}
    lo, hi = dom.get(op, (-20, 20))
    x = u(lo, hi)
    if op in ("CEIL", "FLOOR", "ROUND", "TRUNC", "FRAC", "SIGN"):
        x[: n // 3] = np.round(x[: n // 3] * 2) / 2  # exact halves: the tie cases
        x[n // 3: n // 3 + max(1, n // 10)] = 0.0
    y = u(-3, 3)
    if op == "FMOD":
        y = rng.choice([-1, 1], n) * u(0.3, 3)
    if op == "POW_ST":
        y = u(-4, 4)
    return x.astype(dtype), y.astype(dtype)


def nkb_fail_mask(out, ref, dtype):
    """NPUKernelBench rule: an element fails only when it exceeds both the absolute and relative threshold."""
    thr = 1e-3 if np.dtype(dtype).itemsize == 2 else 1e-5
    out = out.astype(np.float64)
    err = np.abs(out - ref)
    rel = err / np.maximum(np.abs(ref), 1e-30)
    return (err > thr) & (rel > thr) & ~(np.isnan(out) & np.isnan(ref))


def run_op(prog, op, dtype, n, tmp="min", whole=False, reserve=0, s=0.0, seed=0, z=None, expect_ok=True):
    rng = np.random.default_rng(seed)
    x, y = inputs(op, n, dtype, rng)
    length = max(128, (n + 64 + 127) // 128 * 128)
    pad = lambda a: np.concatenate([a, np.zeros(length - n, dtype)]).astype(dtype)  # noqa: E731
    x, y = pad(x), pad(y)
    if op == "POW_ST":
        x = x.copy()
    z0 = np.full(length, SENTINEL, dtype) if z is None else z
    if op == "INPLACE_TRUNC" or op == "INPLACE_SIN":
        z0 = x.copy()
    tmp_bytes = min_tmp(op, dtype) if tmp == "min" else tmp
    case = {np.float32: "math_f32", np.float16: "math_f16", np.int32: "math_i32", np.int16: "math_i16",
            np.uint16: "math_u16"}[dtype]
    res = prog.run(case, x=x, y=y, z=z0, s=np.array([s], np.float32), op=OP[op], n=n, tmp=tmp_bytes,
                   whole=int(whole), reserve=reserve, expect_ok=expect_ok)
    return res, x, y, z0


FLOAT_OPS = [o for o in OPS if o not in ("XOR", "INPLACE_SIN")]
SCALAR = {"POW_TS": 2.5, "POW_ST": 1.7, "CLAMPMAX": 0.3, "CLAMPMIN": -0.4, "AXPY": 1.5}


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("op", FLOAT_OPS)
def test_float_math_matches_torch(prog, op, dtype):
    for n, tmp, whole in [(255, "min", False), (1000, 0, True), (1, "min", True)]:
        if op in ("CEIL", "FLOOR", "ROUND", "EXP0", "EXP3", "EXP12", "POW_TS", "POW_ST", "CLAMPMAX", "CLAMPMIN", "AXPY",
                  "INPLACE_TRUNC") and whole:
            whole = False  # these have no whole-tensor form
        if (op == "AXPY" or op.startswith("INPLACE")) and tmp == 0:
            tmp = "min"  # Axpy (high-level) only has the sharedTmpBuffer form
        s = SCALAR.get(op, 0.0)
        z = None
        if op == "AXPY":
            z = np.random.default_rng(5).uniform(-2, 2, max(128, (n + 64 + 127) // 128 * 128)).astype(dtype)
        res, x, y, z0 = run_op(prog, op, dtype, n, tmp=tmp, whole=whole, s=s, z=z)
        out = res.out("z", dtype)
        ref = reference(op.replace("INPLACE_", ""), x[:n], y[:n], z0[:n], s)
        bad = nkb_fail_mask(out[:n], ref, dtype)
        assert not bad.any(), (op, n, x[:n][bad][:5], out[:n][bad][:5], ref[bad][:5])
        np.testing.assert_array_equal(out[n:], z0[n:])  # past calCount: untouched
        assert not res.errors


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["f32", "f16"])
def test_rounding_ops_are_exact_and_round_ties_to_even(prog, dtype):
    for op, fn in [("ROUND", np.round), ("CEIL", np.ceil), ("FLOOR", np.floor), ("TRUNC", np.trunc),
                   ("FRAC", lambda v: v - np.trunc(v)), ("SIGN", np.sign)]:
        res, x, _, _ = run_op(prog, op, dtype, 300, seed=3)
        out = res.out("z", dtype)[:300]
        np.testing.assert_array_equal(out, fn(x[:300].astype(np.float64)).astype(dtype), err_msg=op)
    # explicit ties go to the even integer: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2
    x = np.array([0.5, 1.5, 2.5, -2.5, 3.5, -0.5, 4.4, -3.6], dtype)
    length = 128
    r = prog.run({np.float32: "math_f32", np.float16: "math_f16"}[dtype], x=np.concatenate([x, np.zeros(120, dtype)]),
                 y=np.zeros(length, dtype), z=np.zeros(length, dtype), s=np.zeros(1, np.float32), op=OP["ROUND"], n=8,
                 tmp=256, whole=0, reserve=0)
    np.testing.assert_array_equal(r.out("z", dtype)[:8], np.array([0, 2, 2, -2, 4, -0.0, 4, -4], dtype))


def test_exp_taylor_level_follows_the_documented_formula(prog):
    """Level 3 is visibly less precise than level 12; level 12 and level 0 agree with exp."""
    res3, x, _, _ = run_op(prog, "EXP3", np.float32, 500, seed=9)
    res12, _, _, _ = run_op(prog, "EXP12", np.float32, 500, seed=9)
    e3, e12 = res3.out("z", np.float32)[:500], res12.out("z", np.float32)[:500]
    exact = np.exp(x[:500].astype(np.float64))
    assert np.max(np.abs(e3 - exact) / exact) > 1e-3      # truncation error of 4 terms shows
    assert np.max(np.abs(e12 - exact) / exact) < 1e-6


@pytest.mark.parametrize("dtype", [np.int16, np.uint16])
def test_xor_bitwise(prog, dtype):
    rng = np.random.default_rng(2)
    info = np.iinfo(dtype)
    for n, whole, tmp in [(333, False, 256), (128, True, 0)]:
        length = (n + 64 + 127) // 128 * 128
        x = rng.integers(info.min, info.max, length, dtype=dtype, endpoint=True)
        y = rng.integers(info.min, info.max, length, dtype=dtype, endpoint=True)
        z0 = np.full(length, 123, dtype)
        res = prog.run(f"math_{'i16' if dtype == np.int16 else 'u16'}", x=x, y=y, z=z0, s=np.zeros(1, np.float32),
                       op=OP["XOR"], n=n, tmp=tmp, whole=int(whole), reserve=0)
        out = res.out("z", dtype)
        np.testing.assert_array_equal(out[:n], np.bitwise_xor(x[:n], y[:n]))
        np.testing.assert_array_equal(out[n:], z0[n:])


def test_power_int32(prog):
    rng = np.random.default_rng(4)
    n, length = 200, 384
    x = rng.integers(-6, 7, length).astype(np.int32)
    y = rng.integers(0, 9, length).astype(np.int32)
    res = prog.run("math_i32", x=x, y=y, z=np.zeros(length, np.int32), s=np.zeros(1, np.float32), op=OP["POW_TT"], n=n,
                   tmp=6 * 256, whole=0, reserve=0)
    np.testing.assert_array_equal(res.out("z", np.int32)[:n], (x[:n].astype(np.int64) ** y[:n]).astype(np.int32))
    res = prog.run("math_i32", x=x, y=y, z=np.zeros(length, np.int32), s=np.array([3], np.float32), op=OP["POW_TS"], n=n,
                   tmp=7 * 256, whole=0, reserve=0)
    np.testing.assert_array_equal(res.out("z", np.int32)[:n], x[:n] ** 3)


def test_axpy_half_source_float_destination(prog):
    rng = np.random.default_rng(8)
    n, length = 300, 320
    x = rng.uniform(-3, 3, length).astype(np.float16)
    z = rng.uniform(-3, 3, length).astype(np.float32)
    res = prog.run("axpy_mixed", x=x, z=z, n=n, tmp=4 * 256, s=np.array([0.75], np.float32))
    out = res.out("z", np.float32)
    ref = z[:n].astype(np.float64) + x[:n].astype(np.float64) * 0.75
    assert not nkb_fail_mask(out[:n], ref, np.float32).any()
    np.testing.assert_array_equal(out[n:], z[n:])


# ---- hardware rules --------------------------------------------------------------------------------

@pytest.mark.parametrize("op,dtype", [("SIN", np.float16), ("ERF", np.float32), ("POW_TT", np.float32),
                                      ("CLAMPMAX", np.float16), ("EXP3", np.float16), ("FMOD", np.float16)])
def test_tmp_buffer_below_minimum_is_an_error(prog, op, dtype):
    need = min_tmp(op, dtype)
    res, *_ = run_op(prog, op, dtype, 100, tmp=need - 32, s=1.0, expect_ok=False)
    assert res.run.returncode == 3
    assert res.errors[0].code == "adv-tmp-too-small", res.errors
    assert f"at least {need}" in res.errors[0].message
    assert res.errors[0].file.endswith("adv_math.cpp")
    # exactly the minimum is accepted
    res, *_ = run_op(prog, op, dtype, 100, tmp=need, s=1.0)
    assert not res.errors


def test_framework_temp_needs_free_ub(prog):
    # three 1152-float buffers (x, y, z); leave less than Sin(float)'s 768 bytes free
    used = 3 * 1152 * 4
    reserve = 196608 - used - 512
    res, *_ = run_op(prog, "SIN", np.float32, 1000, tmp=0, reserve=reserve, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-no-room"
    reserve = 196608 - used - 768
    res, *_ = run_op(prog, "SIN", np.float32, 1000, tmp=0, reserve=reserve)
    assert not res.errors


def test_in_place_rules(prog):
    # exactly in place where the docs forbid it: a located warning (golden answers rely on it), right values
    res, x, _, _ = run_op(prog, "INPLACE_SIN", np.float32, 64, tmp=768)
    assert not res.errors and any(w.code == "operand-in-place" for w in res.warnings)
    np.testing.assert_allclose(res.out("z", np.float32)[:64], np.sin(x[:64]), rtol=1e-5, atol=1e-6)
    res, x, _, _ = run_op(prog, "INPLACE_TRUNC", np.float32, 64, tmp=256)  # Trunc allows in-place
    np.testing.assert_array_equal(res.out("z", np.float32)[:64], np.trunc(x[:64]))


def test_domain_warning_for_asin_outside_unit_interval(prog):
    length = 128
    x = np.concatenate([np.array([0.5, 1.5], np.float32), np.zeros(length - 2, np.float32)])
    res = prog.run("math_f32", x=x, y=x, z=np.zeros(length, np.float32), s=np.zeros(1, np.float32), op=OP["ASIN"],
                   n=2, tmp=512, whole=0, reserve=0)
    assert any(w.code == "adv-domain" for w in res.warnings)
    assert np.isnan(res.out("z", np.float32)[1])


def test_tmp_contents_are_clobbered(prog):
    res = prog.run("tmp_clobber")
    out = res.out("out", np.uint8)
    assert np.all(out[:768] == 0xA5)   # the part Sin(float, 64) uses: 3 nodes * 256 bytes
    assert np.all(out[768:] == 7)


# ---- host helpers ------------------------------------------------------------------------------------

def expected_sizes():
    rows = []
    rep = 256
    for n in (16, 100, 1000):
        for ts in (2, 4):
            one = max(n * ts, rep)
            gen = lambda nodes: (nodes * one, nodes * rep)  # noqa: E731
            rows += [gen(8 if ts == 2 else 3),          # Sin
                     gen(8 if ts == 2 else 2),          # Cos with isReuseSource for float
                     gen(4 if ts == 2 else 1),          # Tanh
                     gen(8 if ts == 2 else 3),          # Erf
                     gen(12 if ts == 2 else 5),         # Atan
                     gen(2 if ts == 2 else 0),          # Floor
                     (0, 0),                            # Log
                     (max(n * 4, rep), rep) if ts == 2 else (0, 0),      # Log2
                     (max(n, 128), 128) if ts == 2 else (max(n, 64), 64),  # Clamp
                     gen(8 if ts == 2 else 1),          # Fmod
                     ((4 if ts == 2 else 3) * max(n * 4, rep), (4 if ts == 2 else 3) * rep),  # Exp
                     gen(1 if ts == 2 else 0)]          # Round (dav-2201)
            if ts == 4:
                rows += [(4 * one + rep, 4 * rep + rep), (5 * one + rep, 5 * rep + rep)]
            else:
                rows += [(14 * max(n * 2, 128) + rep, 14 * rep // 2 + rep), (14 * max(n * 2, 128) + rep, 14 * rep // 2 + rep)]
    rows += [(8, 0), (3, 0), (6, 0)]
    return rows


def test_host_tmp_size_helpers(prog):
    res = prog.run("host_sizes")
    got = res.out("sizes", np.uint32).reshape(-1, 2)
    exp = np.array(expected_sizes(), dtype=np.uint32)
    assert got.shape == exp.shape
    np.testing.assert_array_equal(got, exp)
