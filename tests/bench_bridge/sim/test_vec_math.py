"""Emulator vector families checked against numpy: unary math (Exp, Ln, Abs, Sqrt, Rsqrt,
Reciprocal, Relu, Not), vector-scalar ops (Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft,
ShiftRight), compound ops (Axpy, MulAddDst, FusedMulAdd, MulAddRelu, FusedMulAddRelu), Duplicate,
and the mask register (counter mode / normal mode with isSetMask = false).

References are computed here with numpy in float64 and rounded once to the element type; the
mask/repeat addressing is modelled independently below (`addresses`)."""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import build
from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("vec_math.cpp")

# parameter layout of vec_math.cpp (enum P)
(P_OP, P_FORM, P_MASK_LO, P_MASK_HI, P_REPEAT, P_DBLK, P_S0BLK, P_S1BLK, P_DREP, P_S0REP, P_S1REP, P_COUNT,
 P_REG_MODE, P_REG_LO, P_REG_HI, P_ROUND, P_AFTER, P_N) = range(18)
COUNT, NORMAL, BITS, NOSET, NOSET_COUNT = range(5)
UNARY = {"Exp": 0, "Ln": 1, "Abs": 2, "Sqrt": 3, "Rsqrt": 4, "Reciprocal": 5, "Relu": 6, "Not": 7}
SCALAR = {"Adds": 0, "Muls": 1, "Maxs": 2, "Mins": 3, "LeakyRelu": 4, "ShiftLeft": 5, "ShiftRight": 6}
COMPOUND = {"Axpy": 0, "MulAddDst": 1, "FusedMulAdd": 2, "MulAddRelu": 3, "FusedMulAddRelu": 4}
SENTINEL = -7  # initial destination value: masked-off elements must keep it


def params(op=0, form=COUNT, mask=0, mask_hi=0, repeat=1, strides=(1, 1, 1, 8, 8, 8), count=0, reg_mode=0,
           reg_lo=0, reg_hi=0, round_en=0, after=0) -> np.ndarray:
    p = np.zeros(P_N, dtype=np.uint64)
    p[[P_OP, P_FORM, P_MASK_LO, P_MASK_HI, P_REPEAT]] = [op, form, mask, mask_hi, repeat]
    p[[P_DBLK, P_S0BLK, P_S1BLK, P_DREP, P_S0REP, P_S1REP]] = strides
    p[[P_COUNT, P_REG_MODE, P_REG_LO, P_REG_HI, P_ROUND, P_AFTER]] = [count, reg_mode, reg_lo, reg_hi, round_en, after]
    return p.view(np.int64)


def run(prog, case, x, d, p, y=None, s=0.0, expect_ok=True):
    y = x if y is None else y
    return prog.run(case, x=x, y=y, d=d, p=p, s=np.array([s], np.float64), expect_ok=expect_ok)


# ---- independent model of the mask/repeat addressing ---------------------------------------------------

def addresses(repeat, per_rep, on, strides, itemsizes, limit=None):
    """Element indexes touched by a mask/repeat instruction, one array per operand.

    strides: [(blk, rep), ...] per operand in 32-byte blocks; itemsizes: bytes per element.
    on(i): whether element i of a repeat is enabled; limit: counter mode total."""
    idx = [[] for _ in strides]
    for r in range(repeat):
        for i in range(per_rep):
            if limit is not None and r * per_rep + i >= limit:
                break
            if not on(i):
                continue
            for k, ((blk, rep), size) in enumerate(zip(strides, itemsizes)):
                epb = 32 // size
                idx[k].append(r * rep * epb + (i // epb) * blk * epb + i % epb)
    return [np.array(a, dtype=np.int64) for a in idx]


def normal(m):
    return lambda i: i < m


def bits(lo, hi=0):
    return lambda i: bool((lo >> i) & 1) if i < 64 else bool((hi >> (i - 64)) & 1)


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in units in the last place between two float16/float32 arrays (same sign assumed)."""
    it = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32}[a.dtype]
    ia, ib = a.view(it).astype(np.int64), b.view(it).astype(np.int64)
    sign = np.int64(1) << (8 * a.dtype.itemsize - 1)
    ka = np.where(ia < 0, -(ia + sign), ia)  # ordered integer keys: -0 and +0 coincide
    kb = np.where(ib < 0, -(ib + sign), ib)
    return np.abs(ka - kb)


def bf16_bits(x):
    """float -> bfloat16 bits, round to nearest even (independent integer model)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


# ---- unary math -------------------------------------------------------------------------------------------

def unary_ref(name, x):
    """float64 reference of a float op (rounded by the caller)."""
    v = x.astype(np.float64)
    with np.errstate(all="ignore"):
        return {"Exp": np.exp, "Ln": np.log, "Abs": np.abs, "Sqrt": np.sqrt, "Rsqrt": lambda t: 1 / np.sqrt(t),
                "Reciprocal": lambda t: 1 / t, "Relu": lambda t: np.maximum(t, 0)}[name](v)


def unary_input(name, dtype, n, rng):
    if name in ("Ln", "Sqrt", "Rsqrt"):
        x = rng.uniform(0.01, 60.0, n)
    elif name == "Exp":
        x = rng.uniform(-9.0, 9.0 if dtype == np.float16 else 60.0, n)
    elif name == "Reciprocal":
        x = rng.uniform(0.05, 50.0, n) * rng.choice([-1, 1], n)
    else:
        x = rng.standard_normal(n) * 10
    return x.astype(dtype)


# Exp, Ln and Rsqrt: the emulator takes libm's double result and rounds it (to float, then to
# half). libm's double exp/log are accurate to < 1 ulp of double, so after rounding to float or
# half the result is the correctly rounded value or its neighbour: we require <= 1 ulp of the
# element type against the float64 reference rounded directly. Abs, Sqrt, Reciprocal and Relu
# are exact or correctly rounded (double carries more than 2p+2 bits), so they must match exactly.
ULP_TOL = {"Exp": 1, "Ln": 1, "Rsqrt": 1}
FLOAT_UNARY = ["Exp", "Ln", "Abs", "Sqrt", "Rsqrt", "Reciprocal", "Relu"]


def check_float_unary(name, dtype, got, expected64):
    expected = expected64.astype(dtype)
    tol = ULP_TOL.get(name, 0)
    if tol == 0:
        np.testing.assert_array_equal(got, expected, err_msg=name)
    else:
        dist = ulp_distance(got.astype(dtype), expected)
        assert dist.max() <= tol, f"{name}: {dist.max()} ulp at {np.argmax(dist)}: {got[np.argmax(dist)]} vs {expected[np.argmax(dist)]}"
        # and most results are the correctly rounded one
        assert (dist == 0).mean() > 0.95


@pytest.mark.parametrize("name", FLOAT_UNARY)
@pytest.mark.parametrize("dtype,case", [(np.float32, "unary_f32"), (np.float16, "unary_f16")])
def test_unary_count_form(prog, name, dtype, case):
    rng = np.random.default_rng(UNARY[name])
    n = 300 if dtype == np.float16 else 333  # not a multiple of a repeat (128 / 64 elements)
    total = 384
    x = unary_input(name, dtype, total, rng)
    d = np.full(total, SENTINEL, dtype)
    res = run(prog, case, x, d, params(UNARY[name], COUNT, count=n))
    z = res.out("z", dtype)
    check_float_unary(name, dtype, z[:n], unary_ref(name, x[:n]))
    assert np.all(z[n:] == SENTINEL), "elements past count must not be written"
    assert not res.warnings


@pytest.mark.parametrize("name", FLOAT_UNARY)
@pytest.mark.parametrize(
    "dtype,case,form,mask,mask_hi,repeat,strides",
    [
        (np.float16, "unary_f16", NORMAL, 100, 0, 3, (1, 1, 0, 8, 8, 0)),          # partial normal mask
        (np.float16, "unary_f16", BITS, 0x8000_0000_F0F0_0001, 0x1234_5678_9ABC_DEF0, 2, (1, 1, 0, 8, 8, 0)),
        (np.float32, "unary_f32", NORMAL, 20, 0, 3, (2, 1, 0, 16, 8, 0)),           # dst block stride 2
        (np.float32, "unary_f32", BITS, 0xFF00_0000_0000_00F1, 0, 2, (1, 2, 0, 8, 16, 0)),  # src block stride 2
        (np.float32, "unary_f32", NORMAL, 64, 0, 4, (1, 1, 0, 8, 0, 0)),            # src repeat stride 0: same source
    ],
)
def test_unary_mask_repeat_forms(prog, name, dtype, case, form, mask, mask_hi, repeat, strides):
    rng = np.random.default_rng(7)
    total = 1024
    x = unary_input(name, dtype, total, rng)
    d = np.full(total, SENTINEL, dtype)
    per = 256 // np.dtype(dtype).itemsize
    on = normal(mask) if form == NORMAL else bits(mask, mask_hi if per > 64 else 0)
    di, si = addresses(repeat, per, on, [(strides[0], strides[3]), (strides[1], strides[4])], [np.dtype(dtype).itemsize] * 2)
    res = run(prog, case, x, d, params(UNARY[name], form, mask, mask_hi, repeat, strides))
    z = res.out("z", dtype)
    check_float_unary(name, dtype, z[di], unary_ref(name, x[si]))
    untouched = np.setdiff1d(np.arange(total), di)
    assert np.all(z[untouched] == SENTINEL)


def test_relu_int32_and_not_int16(prog):
    x = np.array([5, -3, 0, 2**31 - 1, -(2**31), 17, -1, 8] * 5, np.int32)
    res = run(prog, "unary_i32", x, np.full(40, -5, np.int32), params(UNARY["Relu"], COUNT, count=37))
    z = res.out("z", np.int32)
    np.testing.assert_array_equal(z[:37], np.maximum(x[:37], 0))
    assert np.all(z[37:] == -5)
    for case, dt in (("unary_i16", np.int16), ("unary_u16", np.uint16)):
        x = np.random.default_rng(3).integers(np.iinfo(dt).min, np.iinfo(dt).max, 256, endpoint=True).astype(dt)
        d = np.full(256, 99, dt)
        res = run(prog, case, x, d, params(UNARY["Not"], BITS, 0xAAAA_AAAA_AAAA_AAAA, 0x0F, repeat=2,
                                           strides=(1, 1, 0, 8, 8, 0)))
        z = res.out("z", dt)
        di, si = addresses(2, 128, bits(0xAAAA_AAAA_AAAA_AAAA, 0x0F), [(1, 8), (1, 8)], [2, 2])
        np.testing.assert_array_equal(z[di], np.invert(x[si]))
        assert np.all(np.delete(z, di) == 99)


def test_domain_warnings_are_located(prog):
    x = np.array([4.0, -1.0, 0.0, 9.0] * 16, np.float32)
    for name, bad in (("Sqrt", "non-positive"), ("Rsqrt", "non-positive"), ("Reciprocal", "zero")):
        res = run(prog, "unary_f32", x, np.zeros(64, np.float32), params(UNARY[name], COUNT, count=64))
        (w,) = res.warnings
        assert w.code == "math-domain" and name in w.message and bad in w.message
        assert w.file.endswith("vec_math.cpp") and w.line > 0
        z = res.out("z", np.float32)
        with np.errstate(all="ignore"):
            ref = unary_ref(name, x).astype(np.float32)
        np.testing.assert_array_equal(z, ref)  # IEEE values (NaN compares equal in assert_array_equal)
    # masked-off bad inputs do not warn: only element 0 (4.0) and 3 (9.0) of each 4 are enabled
    res = run(prog, "unary_f32", x, np.zeros(64, np.float32), params(UNARY["Sqrt"], BITS, 0x9999_9999_9999_9999, 0, 1))
    assert not res.warnings


def test_zero_count_and_zero_repeat_are_no_ops(prog):
    x = np.ones(128, np.float16)
    d = np.full(128, SENTINEL, np.float16)
    for p in (params(UNARY["Exp"], COUNT, count=0), params(UNARY["Exp"], NORMAL, 128, repeat=0)):
        res = run(prog, "unary_f16", x, d, p)
        assert np.all(res.out("z", np.float16) == SENTINEL)


# ---- vector-scalar ops --------------------------------------------------------------------------------------

def scalar_ref(name, x, s, dtype, round_en=False):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        sv = dt.type(s)
        with np.errstate(all="ignore"):
            v = x.astype(np.float64)
            return {"Adds": v + float(sv), "Muls": v * float(sv), "Maxs": np.fmax(v, float(sv)),
                    "Mins": np.fmin(v, float(sv)), "LeakyRelu": np.where(v >= 0, v, v * float(sv))}[name].astype(dtype)
    v = x.astype(np.int64)
    n = int(s)
    bitsz = 8 * dt.itemsize
    if name == "Adds":
        return (v + n).astype(dtype)  # astype wraps
    if name == "Muls":
        return (v * n).astype(dtype)
    if name == "Maxs":
        return np.maximum(v, n).astype(dtype)
    if name == "Mins":
        return np.minimum(v, n).astype(dtype)
    u = x.view(np.dtype(f"u{dt.itemsize}")).astype(np.uint64)
    full = (1 << bitsz) - 1
    if name == "ShiftLeft":
        shifted = (u << np.uint64(n)) & np.uint64(full) if n < bitsz else np.zeros_like(u)
        if dt.kind == "i":  # the sign bit stays, the others shift
            sign = np.uint64(1 << (bitsz - 1))
            shifted = (u & sign) | (shifted & ~sign & np.uint64(full))
        return shifted.astype(np.dtype(f"u{dt.itemsize}")).view(dtype)
    if name == "ShiftRight":
        if dt.kind == "u":
            return (u >> np.uint64(n)).astype(dtype) if n < bitsz else np.zeros_like(x)
        r = v >> min(n, bitsz - 1)
        if round_en and n >= 1:
            r = r + ((v >> (n - 1)) & 1)
        return r.astype(dtype)
    raise KeyError(name)


SCALAR_CASES = [  # (case, dtype, op, scalar)
    ("scalar_f16", np.float16, "Adds", 0.3), ("scalar_f32", np.float32, "Adds", -1.7),
    ("scalar_i16", np.int16, "Adds", 30000), ("scalar_i32", np.int32, "Adds", 2**31 - 10),
    ("scalar_f16", np.float16, "Muls", 1.1), ("scalar_f32", np.float32, "Muls", -3.3),
    ("scalar_i16", np.int16, "Muls", 300), ("scalar_i32", np.int32, "Muls", 65537),
    ("scalar_f16", np.float16, "Maxs", 0.25), ("scalar_f32", np.float32, "Maxs", -0.5),
    ("scalar_i16", np.int16, "Maxs", -100), ("scalar_i32", np.int32, "Maxs", 1000),
    ("scalar_f16", np.float16, "Mins", 0.25), ("scalar_f32", np.float32, "Mins", -0.5),
    ("scalar_i16", np.int16, "Mins", -100), ("scalar_i32", np.int32, "Mins", 1000),
    ("scalar_f16", np.float16, "LeakyRelu", 0.1), ("scalar_f32", np.float32, "LeakyRelu", 0.01),
    ("scalar_i16", np.int16, "ShiftLeft", 3), ("scalar_u16", np.uint16, "ShiftLeft", 5),
    ("scalar_i32", np.int32, "ShiftLeft", 7), ("scalar_u32", np.uint32, "ShiftLeft", 31),
    ("scalar_i16", np.int16, "ShiftRight", 4), ("scalar_u16", np.uint16, "ShiftRight", 15),
    ("scalar_i32", np.int32, "ShiftRight", 9), ("scalar_u32", np.uint32, "ShiftRight", 32),
]


def scalar_input(dtype, n, rng):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (rng.standard_normal(n) * 8).astype(dtype)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)


@pytest.mark.parametrize("case,dtype,name,s", SCALAR_CASES)
def test_scalar_ops_count_and_mask_forms(prog, case, dtype, name, s):
    rng = np.random.default_rng(SCALAR[name])
    size = np.dtype(dtype).itemsize
    per = 256 // size
    total = 4 * per
    x = scalar_input(dtype, total, rng)
    d = np.full(total, 77, dtype)
    # count form, length not a multiple of a repeat
    n = 3 * per - 5
    z = run(prog, case, x, d, params(SCALAR[name], COUNT, count=n), s=s).out("z", dtype)
    np.testing.assert_array_equal(z[:n], scalar_ref(name, x[:n], s, dtype))
    assert np.all(z[n:] == 77)
    # normal mask with a destination block stride of 2
    z = run(prog, case, x, d, params(SCALAR[name], NORMAL, per - 3, repeat=2, strides=(2, 1, 0, 16, 8, 0)), s=s).out("z", dtype)
    di, si = addresses(2, per, normal(per - 3), [(2, 16), (1, 8)], [size, size])
    np.testing.assert_array_equal(z[di], scalar_ref(name, x[si], s, dtype))
    assert np.all(np.delete(z, di) == 77)
    # bit mask, source repeat stride 0 (every repeat reads the same source elements)
    lo, hi = 0x0123_4567_89AB_CDEF, 0xF0E1_D2C3_B4A5_9687
    z = run(prog, case, x, d, params(SCALAR[name], BITS, lo, hi, repeat=3, strides=(1, 1, 0, 8, 0, 0)), s=s).out("z", dtype)
    di, si = addresses(3, per, bits(lo, hi if per > 64 else 0), [(1, 8), (1, 0)], [size, size])
    np.testing.assert_array_equal(z[di], scalar_ref(name, x[si], s, dtype))
    assert np.all(np.delete(z, di) == 77)


def test_shift_examples_from_the_documentation(prog):
    # hand-computed: 0b1010101010101010 as int16 shifted left 1 -> 0b1101010101010100 (sign bit kept),
    # left 3 -> 0b1101010101010000; as uint16 left 1 -> 0b0101010101010100.
    x16 = np.full(16, 0b1010101010101010, np.uint16)
    z = run(prog, "scalar_i16", x16.view(np.int16), np.zeros(16, np.int16), params(SCALAR["ShiftLeft"], COUNT, count=16), s=1).out("z", np.int16)
    assert z.view(np.uint16)[0] == 0b1101010101010100
    z = run(prog, "scalar_i16", x16.view(np.int16), np.zeros(16, np.int16), params(SCALAR["ShiftLeft"], COUNT, count=16), s=3).out("z", np.int16)
    assert z.view(np.uint16)[0] == 0b1101010101010000
    z = run(prog, "scalar_u16", x16, np.zeros(16, np.uint16), params(SCALAR["ShiftLeft"], COUNT, count=16), s=1).out("z", np.uint16)
    assert z[0] == 0b0101010101010100
    # right: int16 1 -> 0b1101010101010101 (arithmetic), 3 -> 0b1111010101010101; uint16 1 -> 0b0101010101010101
    z = run(prog, "scalar_i16", x16.view(np.int16), np.zeros(16, np.int16), params(SCALAR["ShiftRight"], COUNT, count=16), s=3).out("z", np.int16)
    assert z.view(np.uint16)[0] == 0b1111010101010101
    z = run(prog, "scalar_u16", x16, np.zeros(16, np.uint16), params(SCALAR["ShiftRight"], COUNT, count=16), s=1).out("z", np.uint16)
    assert z[0] == 0b0101010101010101


@pytest.mark.parametrize("case,dtype", [("scalar_i16", np.int16), ("scalar_i32", np.int32), ("scalar_u16", np.uint16)])
def test_shift_right_round_en(prog, case, dtype):
    per = 256 // np.dtype(dtype).itemsize
    x = scalar_input(dtype, per, np.random.default_rng(5))
    x[:4] = [17, 15, 16, 31]  # 17 >> 5 with rounding = 1 (the documented example); 15 >> 5 -> 0; 16 -> 1; 31 -> 1
    d = np.zeros(per, dtype)
    for form, rnd in ((NORMAL, 1), (BITS, 1), (NORMAL, 0)):
        mask = per if form == NORMAL else (1 << 64) - 1
        hi = (1 << 64) - 1 if per > 64 else 0
        z = run(prog, case, x, d, params(7, form, mask, hi, 1, round_en=rnd), s=5).out("z", dtype)
        np.testing.assert_array_equal(z, scalar_ref("ShiftRight", x, 5, dtype, round_en=bool(rnd) and dtype != np.uint16))
        if dtype != np.uint16:
            assert list(z[:4]) == ([1, 0, 1, 1] if rnd else [0, 0, 0, 0])


@pytest.mark.parametrize("case,s", [("scalar_i16", 17), ("scalar_i16", -1), ("scalar_i32", 33)])
def test_shift_out_of_documented_range_is_an_error(prog, case, s):
    dtype = np.int16 if "i16" in case else np.int32
    res = run(prog, case, np.ones(64, dtype), np.zeros(64, dtype), params(SCALAR["ShiftLeft"], COUNT, count=64), s=s, expect_ok=False)
    assert res.errors and res.errors[0].code == "shift-out-of-range"
    assert res.errors[0].file.endswith("vec_math.cpp")


def test_scalar_argument_types_convert_to_the_element_type(prog):
    x = np.linspace(-4, 4, 128).astype(np.float16)
    d = np.zeros(128, np.float16)
    # double scalar 0.1 is converted to half first (0.0999755859375), then added with one rounding
    z = run(prog, "scalar_f16", x, d, params(8, count=128), s=0.1).out("z", np.float16)
    np.testing.assert_array_equal(z, x + np.float16(0.1))
    z = run(prog, "scalar_f16", x, d, params(9, count=128), s=3).out("z", np.float16)  # int scalar
    np.testing.assert_array_equal(z, x * np.float16(3))
    z = run(prog, "scalar_f16", x, d, params(10, count=128)).out("z", np.float16)  # 2.0f literal
    np.testing.assert_array_equal(z, x + np.float16(2))
    z = run(prog, "scalar_f16", x, d, params(11, count=128)).out("z", np.float16)  # (half)2.0
    np.testing.assert_array_equal(z, x * np.float16(2))
    xi = np.arange(-32, 32, dtype=np.int32) * 1000
    z = run(prog, "scalar_i32", xi, np.zeros(64, np.int32), params(9, count=64), s=-7).out("z", np.int32)
    np.testing.assert_array_equal(z, xi * -7)


# ---- compound ops ---------------------------------------------------------------------------------------------

def compound_ref(name, x, y, d, s, dtype):
    """Fused multiply-add computed in float64 (exact for these inputs), rounded to float, then to dtype.
    Axpy rounds the product to the source type first, as Muls then Add (the high-level Axpy page: that API,
    Muls + Add, is the more precise one; vec_compound.h)."""
    if name == "Axpy":
        product = (x.astype(np.float64) * s).astype(np.float32).astype(dtype)   # exact in float for a half source
        return (product.astype(np.float64) + d.astype(np.float64)).astype(np.float32).astype(dtype)
    X, Y, D = (a.astype(np.float64) for a in (x, y, d))
    r = {"Axpy": X * s + D, "MulAddDst": X * Y + D, "FusedMulAdd": X * D + Y,
         "MulAddRelu": np.maximum(X * D + Y, 0), "FusedMulAddRelu": np.maximum(X * D + Y, 0)}[name]
    return r.astype(np.float32).astype(dtype)


COMPOUND_TYPES = [("compound_f16", np.float16, np.float16), ("compound_f32", np.float32, np.float32),
                  ("compound_f32_f16", np.float32, np.float16)]


@pytest.mark.parametrize(
    "name,case,td,ts",
    [(n, c, td, ts) for n in COMPOUND for c, td, ts in COMPOUND_TYPES
     if td == ts or n in ("Axpy", "MulAddDst")],  # only Axpy and MulAddDst have the half -> float form
)
def test_compound_ops(prog, name, case, td, ts):
    rng = np.random.default_rng(COMPOUND[name])
    per = 64 if td != ts else 256 // np.dtype(td).itemsize
    total = 4 * 128
    x = (rng.standard_normal(total) * 3).astype(ts)
    y = (rng.standard_normal(total) * 3).astype(ts)
    d = (rng.standard_normal(total) * 3).astype(td)
    s = float(np.asarray(1.375 if ts == np.float16 else -0.8125, dtype=ts))  # exactly representable scalar
    # count form, not a multiple of a repeat
    n = 2 * per + 19
    z = run(prog, case, x, d, params(COMPOUND[name], COUNT, count=n), y=y, s=s).out("z", td)
    np.testing.assert_array_equal(z[:n], compound_ref(name, x[:n], y[:n], d[:n], s, td))
    np.testing.assert_array_equal(z[n:], d[n:])
    # mask/repeat forms: partial normal mask with strides, and a bit mask
    sz_d, sz_s = np.dtype(td).itemsize, np.dtype(ts).itemsize
    for form, mask, hi, strides in ((NORMAL, per - 9, 0, (2, 1, 1, 16, 8, 8)),
                                    (BITS, 0xF00F_0FF0_1234_8001, 0xFFFF_0000_FFFF_0000, (1, 2, 1, 8, 16, 4))):
        p = params(COMPOUND[name], form, mask, hi, repeat=2, strides=strides)
        z = run(prog, case, x, d, p, y=y, s=s).out("z", td)
        on = normal(mask) if form == NORMAL else bits(mask, hi if per > 64 else 0)
        di, xi, yi = addresses(2, per, on, [(strides[0], strides[3]), (strides[1], strides[4]), (strides[2], strides[5])],
                               [sz_d, sz_s, sz_s])
        np.testing.assert_array_equal(z[di], compound_ref(name, x[xi], y[yi], d[di], s, td), err_msg=f"{name} form {form}")
        np.testing.assert_array_equal(np.delete(z, di), np.delete(d, di))


def test_mixed_axpy_accepts_float_literal_and_rejects_overlap(prog):
    x = np.linspace(-2, 2, 128).astype(np.float16)
    d = np.linspace(5, -5, 128).astype(np.float32)
    z = run(prog, "compound_f32_f16", x, d, params(5, count=100), s=0).out("z", np.float32)
    np.testing.assert_array_equal(z[:100], (x[:100].astype(np.float64) * 2.5 + d[:100]).astype(np.float32))
    res = run(prog, "compound_f32_f16", x, d, params(6, count=64), s=1.0, expect_ok=False)
    assert res.errors[0].code == "operand-overlap"
    src = (CPP_DIR / "vec_math.cpp").read_text().splitlines()
    assert res.errors[0].line == next(i for i, l in enumerate(src, 1) if "@overlap-site" in l) + 1


# ---- Duplicate ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case,dtype,s", [("dup_f32", np.float32, -2.5), ("dup_f16", np.float16, 0.1),
                                          ("dup_bf16", np.uint16, 0.1), ("dup_i16", np.int16, -1234),
                                          ("dup_u32", np.uint32, 4000000000)])
def test_duplicate(prog, case, dtype, s):
    size = np.dtype(dtype).itemsize
    per = 256 // size
    total = 4 * per
    fill = bf16_bits(s)[()] if case == "dup_bf16" else np.asarray(s).astype(dtype)
    d = np.full(total, 5, dtype)
    x = np.zeros(8, dtype)
    n = per + 7
    z = run(prog, case, x, d, params(count=n), s=s).out("z", dtype)
    assert np.all(z[:n] == fill) and np.all(z[n:] == 5)
    for form, mask, hi, blk, rep in ((NORMAL, per // 2 + 1, 0, 2, 16), (BITS, 0x8421_8421_8421_8421, 0x1, 1, 8)):
        p = params(0, form, mask, hi, repeat=2, strides=(blk, 1, 1, rep, 8, 8))
        z = run(prog, case, x, d, p, s=s).out("z", dtype)
        on = normal(mask) if form == NORMAL else bits(mask, hi if per > 64 else 0)
        (di,) = addresses(2, per, on, [(blk, rep)], [size])
        assert np.all(z[di] == fill) and np.all(np.delete(z, di) == 5)


# ---- the mask register: counter mode and normal mode with isSetMask = false ------------------------------------

@pytest.mark.parametrize("case,dtype", [("add_f32", np.float32), ("add_f16", np.float16)])
@pytest.mark.parametrize("length,strides", [(100, (1, 1, 1, 8, 8, 8)), (300, (1, 1, 1, 8, 8, 8)),
                                            (150, (2, 1, 1, 16, 8, 8)), (64, (1, 1, 1, 8, 8, 8))])
def test_add_counter_mode_processes_exactly_len_elements(prog, case, dtype, length, strides):
    size = np.dtype(dtype).itemsize
    per = 256 // size
    total = 1024
    rng = np.random.default_rng(length)
    a = rng.standard_normal(total).astype(dtype)
    b = rng.standard_normal(total).astype(dtype)
    d = np.full(total, SENTINEL, dtype)
    # repeatTime 1 is ignored: the repeats follow from the count
    z = run(prog, case, a, d, params(0, NOSET, repeat=1, strides=strides, reg_mode=3, reg_lo=length), y=b).out("z", dtype)
    repeats = -(-length // per)
    di, ai, bi = addresses(repeats, per, normal(per), [(strides[0], strides[3]), (strides[1], strides[4]),
                                                        (strides[2], strides[5])], [size] * 3, limit=length)
    assert len(di) == length
    np.testing.assert_array_equal(z[di], a[ai] + b[bi])
    assert np.all(np.delete(z, di) == SENTINEL), "counter mode must not compute past len"


def test_counter_mode_mask_argument_with_is_set_mask_true(prog):
    # documented example: SetMaskCount, mask[2] = {130, 0}, Adds<half, true>, repeatTimes 1, strides {2, 2, 16, 16}
    x = np.linspace(-1, 1, 512).astype(np.float16)
    d = np.full(512, SENTINEL, np.float16)
    z = run(prog, "scalar_f16", x, d, params(SCALAR["Adds"], BITS, 130, 0, 1, (2, 2, 0, 16, 16, 0), reg_mode=4), s=1.0).out("z", np.float16)
    di, si = addresses(2, 128, normal(128), [(2, 16), (2, 16)], [2, 2], limit=130)
    np.testing.assert_array_equal(z[di], x[si] + np.float16(1))
    assert np.all(np.delete(z, di) == SENTINEL)


def test_counter_mode_count_form_with_is_set_mask_false(prog):
    # documented example: SetMaskCount, SetVectorMask<half, COUNTER>(n), Adds<half, false>(dst, src, s, 1)
    x = np.linspace(-1, 1, 512).astype(np.float16)
    d = np.full(512, SENTINEL, np.float16)
    z = run(prog, "scalar_f16", x, d, params(SCALAR["Muls"], NOSET_COUNT, reg_mode=3, reg_lo=200), s=2.0).out("z", np.float16)
    np.testing.assert_array_equal(z[:200], x[:200] * np.float16(2))
    assert np.all(z[200:] == SENTINEL)


def test_normal_mode_register_masks(prog):
    a = np.arange(256, dtype=np.float16)
    b = np.full(256, 0.5, np.float16)
    d = np.full(256, SENTINEL, np.float16)
    lo, hi = 0x0000_FFFF_0000_00FF, 0x8000_0000_0000_0001
    # SetMaskNorm + SetVectorMask(hi, lo): bit mask for Add<half, false>, two repeats
    z = run(prog, "add_f16", a, d, params(0, NOSET, repeat=2, reg_mode=1, reg_lo=lo, reg_hi=hi), y=b).out("z", np.float16)
    di, ai, bi = addresses(2, 128, bits(lo, hi), [(1, 8)] * 3, [2] * 3)
    np.testing.assert_array_equal(z[di], a[ai] + b[bi])
    assert np.all(np.delete(z, di) == SENTINEL)
    # SetVectorMask<half>(50): the first 50 elements of each repeat
    z = run(prog, "add_f16", a, d, params(0, NOSET, repeat=2, reg_mode=2, reg_lo=50), y=b).out("z", np.float16)
    di, ai, bi = addresses(2, 128, normal(50), [(1, 8)] * 3, [2] * 3)
    np.testing.assert_array_equal(z[di], a[ai] + b[bi])
    assert np.all(np.delete(z, di) == SENTINEL)
    # the same register mask drives the unary family (Exp<half, false>)
    x = np.linspace(-2, 2, 256).astype(np.float16)
    z = run(prog, "unary_f16", x, d, params(UNARY["Abs"], NOSET, repeat=2, reg_mode=1, reg_lo=lo, reg_hi=hi)).out("z", np.float16)
    di, si = addresses(2, 128, bits(lo, hi), [(1, 8)] * 2, [2] * 2)
    np.testing.assert_array_equal(z[di], np.abs(x[si]))
    assert np.all(np.delete(z, di) == SENTINEL)
    # count form with isSetMask = false in normal mode: one contiguous repeat under the register's bit mask
    z = run(prog, "scalar_f16", x, d, params(SCALAR["Adds"], NOSET_COUNT, reg_mode=1, reg_lo=lo, reg_hi=hi), s=1.0).out("z", np.float16)
    (di,) = addresses(1, 128, bits(lo, hi), [(1, 8)], [2])
    np.testing.assert_array_equal(z[di], x[di] + np.float16(1))
    assert np.all(np.delete(z, di) == SENTINEL)


def test_count_form_restores_normal_mode_and_full_mask(prog):
    """A count-form call runs in counter mode internally, then resets the mode and the mask."""
    x = np.linspace(0.5, 2, 128).astype(np.float16)
    d = np.zeros(128, np.float16)
    # SetMaskCount + SetVectorMask(10) before; Abs count form over 128; then Add<half, false>(d, d, d)
    # over one repeat: it must see normal mode with a full mask and double all 128 results.
    z = run(prog, "unary_f16", x, d, params(UNARY["Abs"], COUNT, count=128, reg_mode=3, reg_lo=10, after=1)).out("z", np.float16)
    np.testing.assert_array_equal(z, np.abs(x) * np.float16(2))


def test_documented_call_spellings_compile_and_compute(prog):
    x = np.linspace(-3, 3, 512).astype(np.float16)
    z = prog.run("spellings", x=x).out("z", np.float16)
    ex = np.exp(x[:256].astype(np.float64)).astype(np.float16)
    assert ulp_distance(z[:256], ex).max() <= 1
    np.testing.assert_array_equal(z[256:384], x[256:384] + np.float16(2))
    # Axpy half -> float: 2 repeats of 64; dst repeat stride 8 blocks (64 floats), src 4 blocks (64 halves)
    axpy = (x[384:512].astype(np.float64) * 2 + 1).astype(np.float32)
    np.testing.assert_array_equal(z[384:512], axpy.astype(np.float16))
    np.testing.assert_array_equal(z[512:576], np.float16(0.5))
    np.testing.assert_array_equal(z[576:640], np.float16(3))
    np.testing.assert_array_equal(z[640:768], np.float16(-16))  # -64 >> 2 (arithmetic)


# ---- compile-time rejection of undocumented element types -------------------------------------------------------

REJECTED = r'''
#include "kernel_operator.h"
using namespace AscendC;
void f(LocalTensor<int32_t> i, LocalTensor<half> h, LocalTensor<bfloat16_t> b, LocalTensor<float> x) {
    Exp(i, i, 8);
    Not(h, h, 8);
    Adds(b, b, 1.0f, 8);
    ShiftLeft(x, x, 1.0f, 8);
    Axpy(h, x, 1.0f, 8);
    FusedMulAdd(i, i, i, 8);
}
int main() { return 0; }
'''


def test_undocumented_dtypes_are_rejected_at_compile_time(tmp_path):
    src = tmp_path / "rejected.cpp"
    src.write_text(REJECTED)
    res = build([src])
    assert not res.ok
    text = res.log + "\n".join(d.format() for d in res.diagnostics)
    for msg in ("Exp supports half and float only", "Not supports int16_t and uint16_t only",
                "Adds supports int16_t, half, int32_t and float only",
                "ShiftLeft/ShiftRight support int16_t, uint16_t, int32_t and uint32_t only",
                "Axpy supports (dst, src) = (half, half), (float, float), (float, half) only",
                "FusedMulAdd / MulAddRelu support half and float only"):
        assert msg in text, msg
