"""Cast on the emulator against references computed independently here with numpy/torch.

Floating-point targets: the round-to-nearest-even result comes from numpy/torch, the two
neighbouring representable values from stepping its bit pattern, and each RoundMode picks one of
them by exact float64 comparison. Integer targets: numpy rint/floor/ceil/trunc and
sign*floor(|x|+0.5), then saturation. Exhaustive over all 65536 half and bfloat16 bit patterns.
"""
from __future__ import annotations

import re

from fractions import Fraction

import numpy as np
import pytest
import torch

from bench_bridge.sim import build
from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cast.cpp")

NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD = range(7)
DIRECTED = [RINT, FLOOR, CEIL, ROUND, TRUNC]
NAMES = {NONE: "NONE", RINT: "RINT", FLOOR: "FLOOR", CEIL: "CEIL", ROUND: "ROUND", TRUNC: "TRUNC", ODD: "ODD"}

# ---- reference: floating-point formats as bit patterns ------------------------------------------

FMTS = {  # width, largest finite magnitude, 2 ** (emax + 1) (the value "inf" stands for when rounding)
    "half": (16, 65504.0, 65536.0),
    "bf16": (16, float(np.float32(3.3895313892515355e38)), 2.0**128),
    "float": (32, float(np.finfo(np.float32).max), 2.0**128),
}


def bits_to_f64(bits: np.ndarray, fmt: str) -> np.ndarray:
    if fmt == "half":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    if fmt == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def rne_bits(x: np.ndarray, fmt: str) -> np.ndarray:
    """Round-to-nearest-even bit patterns, computed by numpy (half, float) or torch (bfloat16)."""
    with np.errstate(over="ignore"):
        if fmt == "half":
            return x.astype(np.float16).view(np.uint16).astype(np.uint64)
        if fmt == "float":
            return x.astype(np.float32).view(np.uint32).astype(np.uint64)
    assert np.all(x[np.isfinite(x)] == x[np.isfinite(x)].astype(np.float32)), "bf16 reference needs float32 inputs"
    t = torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16).view(torch.int16).numpy()
    return t.view(np.uint16).astype(np.uint64)


def step(bits: np.ndarray, width: int, up: bool) -> np.ndarray:
    """Next representable value toward +inf (up) or -inf, on sign-magnitude bit patterns."""
    s = np.uint64(1 << (width - 1))
    neg = (bits & s) != 0
    if up:
        return np.where(neg, np.where(bits == s, np.uint64(1), bits - np.uint64(1)), bits + np.uint64(1))
    return np.where(neg, bits + np.uint64(1), np.where(bits == 0, s | np.uint64(1), bits - np.uint64(1)))


def float_ref(x: np.ndarray, fmt: str, mode: int, sat_float: bool = False) -> np.ndarray:
    """Expected bit patterns of x (float64, exact) rounded to `fmt` in `mode`."""
    width, fmax, beyond = FMTS[fmt]
    b0 = rne_bits(x, fmt)
    v0 = bits_to_f64(b0, fmt)
    lo = np.where(v0 <= x, b0, step(b0, width, False))
    hi = np.where(v0 >= x, b0, step(b0, width, True))

    def val(b):
        v = bits_to_f64(b, fmt)
        with np.errstate(invalid="ignore"):
            return np.where(np.isinf(v), np.sign(v) * beyond, v)

    lo_v, hi_v = val(lo), val(hi)
    if mode in (RINT, NONE):
        out = b0
    elif mode == FLOOR:
        out = lo
    elif mode == CEIL:
        out = hi
    elif mode == TRUNC:
        out = np.where(x >= 0, lo, hi)
    elif mode == ROUND:
        with np.errstate(invalid="ignore"):
            dl, dh = x - lo_v, hi_v - x
        out = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(x > 0, hi, lo)))
    elif mode == ODD:
        out = np.where(v0 == x, b0, np.where((lo & np.uint64(1)) == 1, lo, hi))
    out = np.where(np.isinf(x), b0, out)
    if sat_float:
        inf_mag = bits_to_f64(out, fmt)
        out = np.where(np.isinf(inf_mag), step(out, width, inf_mag < 0), out)  # inf -> +-max
    return out


def int_ref(x: np.ndarray, mode: int, dtype) -> np.ndarray:
    """Round to integer in `mode`, saturate to dtype, NaN -> 0 (the emulator's documented choice)."""
    with np.errstate(invalid="ignore"):
        r = {RINT: np.rint, NONE: np.rint, FLOOR: np.floor, CEIL: np.ceil, TRUNC: np.trunc,
             ROUND: lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)}[mode](x)
    info = np.iinfo(dtype)
    r = np.where(np.isnan(r), 0.0, r)
    out = np.empty(r.shape, dtype=dtype)
    big = r >= 2.0**63
    small = r < -(2.0**63)
    mid = ~(big | small)
    clipped = np.clip(r[mid], float(info.min), float(info.max))
    out[mid] = [max(info.min, min(info.max, int(v))) for v in clipped] if dtype == np.int64 else clipped.astype(dtype)
    out[big] = info.max
    out[small] = info.min
    return out


# ---- inputs ------------------------------------------------------------------------------------

ALL16 = np.arange(65536, dtype=np.uint32).astype(np.uint16)
ALL_HALF = ALL16.view(np.float16)
ALL_BF16_AS_F32 = (ALL16.astype(np.uint32) << 16).view(np.float32)


def float_inputs() -> np.ndarray:
    rng = np.random.default_rng(7)
    h = ALL_HALF[np.isfinite(ALL_HALF)].astype(np.float64)
    h = np.unique(h)
    mids = ((h[:-1] + h[1:]) / 2).astype(np.float32)  # exact ties between neighbouring halves
    b = np.unique(ALL_BF16_AS_F32[np.isfinite(ALL_BF16_AS_F32)].astype(np.float64))
    bmids = ((b[:-1] + b[1:]) / 2).astype(np.float32)  # exact ties between neighbouring bfloat16 values
    ulp_off = np.concatenate([np.nextafter(mids, np.float32(np.inf)), np.nextafter(mids, np.float32(-np.inf))])
    ties = np.arange(-300, 300, dtype=np.float32) + np.float32(0.5)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504, 65519.99, 65520, 65536, 1e9, -1e9, 3e38, -3e38,
                        2.0**31, -(2.0**31), 2.0**31 - 128, 2.0**63, -(2.0**63), 1e-45, -1e-45, 2.0**-24, 2.0**-25,
                        3 * 2.0**-26, 32767.5, -32768.5, 127.5, -128.5, 255.5, 2**22 + 0.5, 0.5 + 2.0**-12],
                       dtype=np.float32)
    rand = np.concatenate([rng.standard_normal(3000) * s for s in (1e-6, 1, 100, 1e5, 1e12)]).astype(np.float32)
    return np.concatenate([special, mids, bmids, ulp_off, ties, rand]).astype(np.float32)


FLOATS = float_inputs()


def int32_inputs() -> np.ndarray:
    rng = np.random.default_rng(3)
    special = np.array([0, 1, -1, 2**31 - 1, -(2**31), 2**24 + 1, 2**25 + 2, 2**25 + 3, 2**25 + 6, -(2**25) - 2,
                        32767, 32768, -32768, -32769, 65535, 65536], dtype=np.int64)
    ties = (rng.integers(2**24, 2**30, 2000) | 1) << rng.integers(0, 2, 2000)
    return np.concatenate([special, ties, -ties, rng.integers(-(2**31), 2**31, 4000)]).astype(np.int32)


INT32S = int32_inputs()


def run(prog, case, x, mode, **kw):
    return prog.run(case, x=x, mode=np.int64(mode), **kw)


# ---- exact widening conversions ------------------------------------------------------------------

def test_half_to_float_exhaustive(prog):
    res = run(prog, "cast_float_half", ALL_HALF, NONE)
    y = res.out("y", np.float32)
    ref = ALL_HALF.astype(np.float32)
    nan = np.isnan(ref)
    np.testing.assert_array_equal(y[~nan].view(np.uint32), ref[~nan].view(np.uint32))  # bitwise: -0, subnormals
    assert np.all(np.isnan(y[nan]))
    assert not res.warnings


def test_bf16_to_float_exhaustive(prog):
    res = run(prog, "cast_float_bf16", ALL16, NONE)
    y = res.out("y", np.float32)
    nan = np.isnan(ALL_BF16_AS_F32)
    np.testing.assert_array_equal(y[~nan].view(np.uint32), ALL_BF16_AS_F32[~nan].view(np.uint32))
    assert np.all(np.isnan(y[nan]))


@pytest.mark.parametrize("case,dtype,to", [("cast_half_int8", np.int8, np.float16), ("cast_half_uint8", np.uint8, np.float16),
                                           ("cast_float_int16", np.int16, np.float32), ("cast_int64_int32", np.int32, np.int64)])
def test_exact_integer_widening(prog, case, dtype, to):
    info = np.iinfo(dtype)
    x = np.arange(info.min, info.max + 1, dtype=np.int64).astype(dtype) if dtype != np.int32 else INT32S
    y = run(prog, case, x, NONE).out("y", to)
    np.testing.assert_array_equal(y, x.astype(to))


# ---- rounding to floating-point formats ----------------------------------------------------------

@pytest.mark.parametrize("mode", [NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD])
def test_float_to_half_every_mode(prog, mode):
    x = FLOATS
    y = run(prog, "cast_half_float", x, mode).out("y", np.uint16)
    ref = float_ref(x.astype(np.float64), "half", mode)
    nan = np.isnan(x)
    bad = np.nonzero(y[~nan] != ref[~nan])[0]
    assert bad.size == 0, f"{NAMES[mode]}: {x[~nan][bad[:5]]} -> {y[~nan][bad[:5]]} expected {ref[~nan][bad[:5]]}"
    assert np.all(np.isnan(y[nan].view(np.float16)))


def test_float_to_half_hand_checked_examples(prog):
    # 0.5 + 2^-12 lies between 0.5 and 0.5 + 2^-11: RINT/FLOOR/TRUNC give 0.5, CEIL/ROUND/ODD the upper one
    x = np.array([0.5 + 2.0**-12, -(0.5 + 2.0**-12), 70000.0, -70000.0, 65520.0], dtype=np.float32)
    got = {m: run(prog, "cast_half_float", x, m).out("y", np.float16).astype(np.float64) for m in (RINT, FLOOR, CEIL, ROUND, TRUNC, ODD)}
    up = 0.5 + 2.0**-11
    assert list(got[RINT][:2]) == [0.5, -0.5] and list(got[ODD][:2]) == [up, -up]
    assert list(got[FLOOR][:2]) == [0.5, -up] and list(got[CEIL][:2]) == [up, -0.5]
    assert list(got[ROUND][:2]) == [up, -up] and list(got[TRUNC][:2]) == [0.5, -0.5]
    # overflow: nearest modes -> inf, toward zero / odd -> 65504, directed per side
    assert list(got[RINT][2:]) == [np.inf, -np.inf, np.inf] and list(got[TRUNC][2:]) == [65504, -65504, 65504]
    assert list(got[ODD][2:4]) == [65504, -65504] and list(got[FLOOR][2:4]) == [65504, -np.inf]
    assert list(got[CEIL][2:4]) == [np.inf, -65504] and got[ROUND][4] == np.inf


def test_float_saturation_flag_maps_inf_and_nan(prog):
    x = np.array([1e6, -1e6, np.inf, -np.inf, np.nan, 1.5], dtype=np.float32)
    y = run(prog, "cast_half_float", x, RINT, flags=np.int64(2)).out("y", np.float16).astype(np.float64)
    np.testing.assert_array_equal(y, [65504, -65504, 65504, -65504, 0, 1.5])


@pytest.mark.parametrize("mode", DIRECTED)
def test_float_to_bf16_every_mode(prog, mode):
    x = FLOATS
    y = run(prog, "cast_bf16_float", x, mode).out("y", np.uint16)
    ref = float_ref(x.astype(np.float64), "bf16", mode)
    nan = np.isnan(x)
    bad = np.nonzero(y[~nan] != ref[~nan])[0]
    assert bad.size == 0, f"{NAMES[mode]}: {x[~nan][bad[:5]]} -> {y[~nan][bad[:5]]} expected {ref[~nan][bad[:5]]}"
    assert np.all(np.isnan((y[nan].astype(np.uint32) << 16).view(np.float32)))


@pytest.mark.parametrize("mode", [NONE, *DIRECTED])
def test_int16_to_half_exhaustive(prog, mode):
    x = np.arange(-32768, 32768, dtype=np.int32).astype(np.int16)
    y = run(prog, "cast_half_int16", x, mode).out("y", np.uint16)
    np.testing.assert_array_equal(y, float_ref(x.astype(np.float64), "half", mode))


def test_int16_to_half_documented_example(prog):
    x = np.array([2**12 + 2], dtype=np.int16)  # halfway between 4096 and 4100
    got = [run(prog, "cast_half_int16", x, m).out("y", np.float16)[0] for m in (RINT, FLOOR, CEIL, ROUND, TRUNC)]
    assert got == [4096, 4096, 4100, 4100, 4096]


@pytest.mark.parametrize("mode", [NONE, *DIRECTED])
def test_int32_to_float_every_mode(prog, mode):
    y = run(prog, "cast_float_int32", INT32S, mode).out("y", np.uint32)
    np.testing.assert_array_equal(y, float_ref(INT32S.astype(np.float64), "float", mode))


@pytest.mark.parametrize("mode", DIRECTED)
def test_int64_to_float_every_mode(prog, mode):
    rng = np.random.default_rng(11)
    x = np.concatenate([np.array([0, -1, 2**63 - 1, -(2**63), 2**35 + 2**12 + 2**11, -(2**35 + 2**12 + 2**11),
                                  2**35 + 2**12, 2**24 + 1], dtype=np.int64),
                        rng.integers(-(2**63), 2**63 - 1, 1500, dtype=np.int64),
                        rng.integers(-(2**40), 2**40, 1500, dtype=np.int64)])
    y = run(prog, "cast_float_int64", x, mode).out("y", np.float32)
    for xi, yi in zip(x.tolist(), y.tolist()):  # exact rational check, independent of numpy rounding
        f = np.float32(np.float64(xi))
        cands = {float(f), float(np.nextafter(f, np.float32(np.inf))), float(np.nextafter(f, np.float32(-np.inf)))}
        lo = max(c for c in cands if Fraction(c) <= xi)
        hi = min(c for c in cands if Fraction(c) >= xi)
        dl, dh = xi - Fraction(lo), Fraction(hi) - xi
        even = lambda v: (np.float32(v).view(np.uint32) & 1) == 0
        want = {FLOOR: lo, CEIL: hi, TRUNC: lo if xi >= 0 else hi,
                ROUND: lo if dl < dh else hi if dh < dl else (hi if xi > 0 else lo),
                RINT: lo if dl < dh else hi if dh < dl else (lo if even(lo) else hi)}[mode]
        assert yi == want, (xi, NAMES[mode], yi, want)


def test_int32_to_half_uses_deqscale(prog):
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.integers(-200000, 200000, 3000), [2**31 - 1, -(2**31), 0]]).astype(np.int32)
    res = run(prog, "cast_half_int32", x, RINT, flags=np.int64(4), deq_milli=np.int64(7))
    scale = float(np.float16(0.007))
    with np.errstate(over="ignore"):
        ref = (x.astype(np.float64) * scale).astype(np.float16)
    np.testing.assert_array_equal(res.out("y", np.uint16), ref.view(np.uint16))
    assert not res.warnings


def test_int32_to_half_without_deqscale_warns(prog):
    res = run(prog, "cast_half_int32", np.arange(64, dtype=np.int32), RINT)
    assert [w.code for w in res.warnings] == ["cast-deqscale-unset"]
    np.testing.assert_array_equal(res.out("y", np.float16), np.arange(64, dtype=np.float16))


# ---- rounding to integers ------------------------------------------------------------------------

@pytest.mark.parametrize("mode", DIRECTED)
@pytest.mark.parametrize("case,dtype", [("cast_int32_half", np.int32), ("cast_int16_half", np.int16)])
def test_half_to_int_exhaustive(prog, case, dtype, mode):
    y = run(prog, case, ALL_HALF, mode).out("y", dtype)
    np.testing.assert_array_equal(y, int_ref(ALL_HALF.astype(np.float64), mode, dtype))


@pytest.mark.parametrize("mode", [NONE, *DIRECTED])
@pytest.mark.parametrize("case,dtype", [("cast_int8_half", np.int8), ("cast_uint8_half", np.uint8)])
def test_half_to_8bit_saturates(prog, case, dtype, mode):
    res = run(prog, case, ALL_HALF, mode)
    np.testing.assert_array_equal(res.out("y", dtype), int_ref(ALL_HALF.astype(np.float64), mode, dtype))
    if dtype == np.uint8:  # negative inputs to an unsigned target are reported once per call
        (w,) = res.warnings
        assert w.code == "cast-negative-to-unsigned" and "half -> uint8_t" in w.message
    else:
        assert not res.warnings


def test_half_to_int8_documented_example(prog):
    x = np.array([127.5, -1.5, 1.75], dtype=np.float16)  # 2^7 - 0.5 saturates to 127 in every mode
    got = {m: list(run(prog, "cast_int8_half", x, m).out("y", np.int8)) for m in DIRECTED}
    assert got == {RINT: [127, -2, 2], FLOOR: [127, -2, 1], CEIL: [127, -1, 2], ROUND: [127, -2, 2], TRUNC: [127, -1, 1]}


@pytest.mark.parametrize("mode", DIRECTED)
def test_bf16_to_int32_exhaustive(prog, mode):
    y = run(prog, "cast_int32_bf16", ALL16, mode).out("y", np.int32)
    np.testing.assert_array_equal(y, int_ref(ALL_BF16_AS_F32.astype(np.float64), mode, np.int32))


@pytest.mark.parametrize("mode", DIRECTED)
@pytest.mark.parametrize("case,dtype", [("cast_int32_float", np.int32), ("cast_int16_float", np.int16),
                                        ("cast_int64_float", np.int64)])
def test_float_to_int_every_mode(prog, case, dtype, mode):
    y = run(prog, case, FLOATS, mode).out("y", dtype)
    np.testing.assert_array_equal(y, int_ref(FLOATS.astype(np.float64), mode, dtype))


@pytest.mark.parametrize("mode", DIRECTED)
def test_float_to_float_rounds_to_integral(prog, mode):
    y = run(prog, "cast_float_float", FLOATS, mode).out("y", np.float32)
    f = {RINT: np.rint, FLOOR: np.floor, CEIL: np.ceil, TRUNC: np.trunc,
         ROUND: lambda v: np.where(np.abs(v) >= 2.0**23, v, np.sign(v) * np.floor(np.abs(v) + 0.5))}[mode]
    with np.errstate(invalid="ignore"):
        ref = f(FLOATS.astype(np.float64)).astype(np.float32)
    nan = np.isnan(FLOATS)
    np.testing.assert_array_equal(y[~nan], ref[~nan])
    assert np.all(np.isnan(y[nan]))
    assert np.signbit(y[FLOATS == np.float32(-0.25)]).all() if (FLOATS == np.float32(-0.25)).any() else True


def test_integer_narrowing_saturates_by_default(prog):
    np.testing.assert_array_equal(run(prog, "cast_int16_int32", INT32S, NONE).out("y", np.int16),
                                  np.clip(INT32S, -32768, 32767).astype(np.int16))
    x64 = np.array([2**31, -(2**31) - 1, 2**40, -(2**62), 5, -5, 2**31 - 1], dtype=np.int64)
    np.testing.assert_array_equal(run(prog, "cast_int32_int64", x64, NONE).out("y", np.int32),
                                  np.clip(x64, -(2**31), 2**31 - 1).astype(np.int32))


def test_cast_saturation_off_keeps_low_bits(prog):
    y = run(prog, "cast_int16_int32", INT32S, NONE, flags=np.int64(1)).out("y", np.int16)
    np.testing.assert_array_equal(y, INT32S.astype(np.int16))  # numpy astype wraps
    x = np.array([40000.4, -40000.6, 70000.0, 1e6], dtype=np.float32)
    y = run(prog, "cast_int16_float", x, RINT, flags=np.int64(1)).out("y", np.int16)
    np.testing.assert_array_equal(y, np.rint(x.astype(np.float64)).astype(np.int64).astype(np.int16))


# ---- unsupported modes and pairs -------------------------------------------------------------------

@pytest.mark.parametrize("case,mode,text", [("cast_float_half", RINT, "half -> float does not support CAST_RINT"),
                                            ("cast_int32_float", NONE, "float -> int32_t does not support CAST_NONE"),
                                            ("cast_bf16_float", ODD, "float -> bfloat16_t does not support CAST_ODD")])
def test_unsupported_round_mode_is_located_error(prog, case, mode, text):
    res = run(prog, case, np.ones(64, np.float32 if "float" in case.split("_")[2] else np.float16), mode, expect_ok=False)
    assert res.run.returncode == 3
    (err,) = res.errors
    assert err.code == "cast-bad-round-mode" and text in err.message
    assert err.file.endswith("cast.cpp") and "@cast-site" in (CPP_DIR / "cast.cpp").read_text().splitlines()[err.line - 1]


def test_unsupported_pair_does_not_compile(tmp_path):
    src = tmp_path / "bad_cast.cpp"
    src.write_text(
        "#include \"kernel_operator.h\"\nusing namespace AscendC;\n"
        "__global__ __aicore__ void k() { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);\n"
        "  LocalTensor<half> h = b.Get<half>(); LocalTensor<bfloat16_t> f = b.Get<bfloat16_t>()[256];\n"
        "  Cast(f, h, RoundMode::CAST_RINT, 64); }\nint main() { k<<<1, nullptr, nullptr>>>(); }\n")
    res = build([src])
    assert not res.ok
    err = res.errors[0]  # located on the user's Cast line, naming the rule
    assert err.file.endswith("bad_cast.cpp") and err.line == 5
    assert "type pair is not supported on dav-2201" in err.message
    # the instantiation names dst = bfloat16, src = half (g++ and clang++ print the template arguments alike
    # but clang qualifies them with the namespace)
    assert re.search(r"Float16<(kgen::)?bf16_tag>, (kgen::)?Float16<(kgen::)?f16_tag>", res.log), res.log[-600:]


# ---- mask/repeat forms ---------------------------------------------------------------------------------

def repeat_ref(x, y0, conv, sd, ss, kind, mask_lo, mask_hi, repeat, dblk, sblk, drep, srep, total):
    """Independent model of mixed-width repeat addressing: each operand strides in its own 32-byte blocks."""
    per = 256 // max(sd, ss)
    epb_d, epb_s = 32 // sd, 32 // ss
    out = y0.copy()
    if kind == 3:
        repeat = -(-total // per)
    for r in range(repeat):
        for i in range(per):
            if kind == 3:
                if r * per + i >= total:
                    break
            elif kind == 0:
                if i >= mask_lo:
                    continue
            else:
                word = mask_lo if i < 64 else mask_hi
                if not (word >> (i % 64)) & 1:
                    continue
            d = r * drep * epb_d + (i // epb_d) * dblk * epb_d + i % epb_d
            s = r * srep * epb_s + (i // epb_s) * sblk * epb_s + i % epb_s
            out[d] = conv(x[s:s + 1])[0]
    return out


REPEAT_CASES = [
    # kind, mask_lo, mask_hi, repeat, dblk, sblk, drep, srep, counter_total
    (0, 64, 0, 4, 1, 1, 8, 4, 0),            # documented contiguous half -> float: dstRep 8, srcRep 4
    (0, 37, 0, 3, 1, 1, 8, 4, 0),            # partial normal mask: first 37 of each 64
    (1, 0xF0F0_0000_FFFF_0001, 0, 2, 1, 1, 8, 4, 0),  # bit mask (only mask[0] counts for 64 per repeat)
    (0, 64, 0, 2, 2, 1, 16, 4, 0),           # destination block stride 2
    (0, 64, 0, 3, 1, 2, 8, 8, 0),            # source block stride 2
    (2, 0x00FF_00FF_00FF_00FF, 0, 2, 1, 1, 8, 4, 0),  # mask register, isSetMask = false
    (3, 0, 0, 1, 1, 1, 8, 4, 150),           # counter mode: 150 elements, repeats follow from the count
    (0, 64, 0, 0, 1, 1, 8, 4, 0),            # repeatTime 0: no operation
]


@pytest.mark.parametrize("params", REPEAT_CASES)
@pytest.mark.parametrize("case,sd,ss,mode,conv", [
    ("repeat_float_half", 4, 2, NONE, lambda v: v.astype(np.float32)),
    ("repeat_int32_half", 4, 2, CEIL, lambda v: np.ceil(v.astype(np.float64)).astype(np.int32)),
])
def test_mixed_width_repeat_addressing(prog, params, case, sd, ss, mode, conv):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(1024) * 50).astype(np.float16)
    dt = np.float32 if "float" in case else np.int32
    y0 = np.full(1024, -7, dtype=dt)
    p = np.array(params, dtype=np.uint64).view(np.int64)
    res = prog.run(case, x=x, y0=y0, p=p, mode=np.int64(mode))
    np.testing.assert_array_equal(res.out("y", dt), repeat_ref(x, y0, conv, sd, ss, *params))


@pytest.mark.parametrize("params", [(0, 64, 0, 4, 1, 1, 4, 8, 0), (1, 0x5555_5555_5555_5555, 0, 2, 1, 1, 4, 8, 0),
                                    (3, 0, 0, 9, 1, 1, 4, 8, 70)])
def test_float_to_half_repeat_rounds_with_mode(prog, params):
    x = (np.random.default_rng(4).standard_normal(1024) * 1000).astype(np.float32)
    y0 = np.full(1024, 3.0, dtype=np.float16)
    p = np.array(params, dtype=np.uint64).view(np.int64)
    res = prog.run("repeat_half_float", x=x, y0=y0, p=p, mode=np.int64(TRUNC))
    conv = lambda v: float_ref(v.astype(np.float64), "half", TRUNC).astype(np.uint16).view(np.float16)
    np.testing.assert_array_equal(res.out("y", np.float16), repeat_ref(x, y0, conv, 2, 4, *params))


def test_bit_mask_uses_both_words_for_128_element_repeats(prog):
    x = np.arange(-512, 512, dtype=np.float16)
    y0 = np.full(1024, 99, dtype=np.int8)
    params = (1, 0x8000_0000_0000_0001, 0x0000_0000_0000_0003, 2, 1, 1, 4, 8, 0)  # int8 <- half: 128 per repeat
    p = np.array(params, dtype=np.uint64).view(np.int64)
    res = prog.run("repeat_int8_half", x=x, y0=y0, p=p, mode=np.int64(RINT))
    conv = lambda v: np.clip(np.rint(v.astype(np.float64)), -128, 127).astype(np.int8)
    y = res.out("y", np.int8)
    np.testing.assert_array_equal(y, repeat_ref(x, y0, conv, 1, 2, *params))
    assert (y != 99).sum() == 8  # 4 enabled elements x 2 repeats


def test_bad_normal_mask_is_reported(prog):
    x = np.zeros(1024, np.float16)
    p = np.array([0, 65, 0, 1, 1, 1, 8, 4, 0], dtype=np.int64)  # 65 > 64 elements per half->float repeat
    res = prog.run("repeat_float_half", x=x, y0=np.zeros(1024, np.float32), p=p, mode=np.int64(NONE), expect_ok=False)
    assert res.errors[0].code == "bad-mask" and "[1, 64]" in res.errors[0].message


def test_saturation_flags_default_and_reset_per_launch(prog):
    y = prog.run("flags").out("y", np.int32)
    np.testing.assert_array_equal(y, [1, 0, 0, 1, 1, 0, 0, 1])
