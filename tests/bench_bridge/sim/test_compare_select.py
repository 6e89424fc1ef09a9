"""Compare / Compares / CompareScalar / CMPMASK / Select on the emulator, against numpy references.

Result bits are packed little-endian (np.packbits(..., bitorder="little")): bit k of the result is
bit k % 8 of byte k // 8, as the documentation's examples show (GT on [2,3,5,7,11,13,17,19] against
[2,4,6,8,10,12,14,16] gives 0b11110000).
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("compare_select.cpp")

LT, GT, EQ, LE, GE, NE = range(6)
OPS = {LT: np.less, GT: np.greater, EQ: np.equal, LE: np.less_equal, GE: np.greater_equal, NE: np.not_equal}
CASE = {np.float32: "cmp_f32", np.float16: "cmp_f16", np.int32: "cmp_i32"}
SENTINEL = 0xA5


def marker_line(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "compare_select.cpp").read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


def params(*vals, n=8):
    p = np.zeros(n, dtype=np.uint64)
    p[: len(vals)] = np.array(vals, dtype=np.uint64)
    return p.view(np.int64)


def operands(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.int32:
        a = rng.integers(-5, 5, n).astype(np.int32)
        b = rng.integers(-5, 5, n).astype(np.int32)
    else:
        a = rng.integers(-4, 4, n).astype(dtype)  # many equal pairs
        b = rng.integers(-4, 4, n).astype(dtype)
        a[:8] = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, 2.0], dtype=dtype)
        b[:8] = np.array([np.nan, -0.0, 0.0, np.inf, 1.0, 3.0, 1.5, np.nan], dtype=dtype)
    return a, b


# ---- Compare, count form -----------------------------------------------------------------------

@pytest.mark.parametrize("mode", [LT, GT, EQ, LE, GE, NE])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_compare_count_every_mode(prog, dtype, mode):
    n = 512  # 2048 / 1024 bytes: whole repeats
    a, b = operands(dtype, n, seed=mode)
    d0 = np.full(n // 8 + 32, SENTINEL, np.uint8)
    res = prog.run(CASE[dtype], a=a, b=b, d0=d0, p=params(0, n), mode=np.int64(mode))
    d = res.out("d", np.uint8)
    np.testing.assert_array_equal(d[: n // 8], np.packbits(OPS[mode](a, b), bitorder="little"))
    assert np.all(d[n // 8:] == SENTINEL)  # nothing written past the result
    assert not res.warnings


def test_compare_documented_example_bit_order(prog):
    a = np.tile(np.array([2, 3, 5, 7, 11, 13, 17, 19], np.float32), 8)
    b = np.tile(np.array([2, 4, 6, 8, 10, 12, 14, 16], np.float32), 8)
    got = {m: prog.run("cmp_f32", a=a, b=b, d0=np.zeros(8, np.uint8), p=params(0, 64), mode=np.int64(m)).out("d", np.uint8)[0]
           for m in (GT, GE, LE, EQ, NE)}
    assert got == {GT: 0b11110000, GE: 0b11110001, LE: 0b00001111, EQ: 0b00000001, NE: 0b11111110}


def test_compare_int32_eq_and_other_modes_rejected(prog):
    a, b = operands(np.int32, 128)
    res = prog.run("cmp_i32", a=a, b=b, d0=np.zeros(16, np.uint8), p=params(0, 128), mode=np.int64(EQ))
    np.testing.assert_array_equal(res.out("d", np.uint8), np.packbits(a == b, bitorder="little"))
    bad = prog.run("cmp_i32", a=a, b=b, d0=np.zeros(16, np.uint8), p=params(0, 128), mode=np.int64(LT), expect_ok=False)
    (err,) = bad.errors
    assert err.code == "cmp-bad-mode" and "only CMPMODE::EQ" in err.message and "LT" in err.message
    assert err.line == marker_line("@compare-site") and bad.run.returncode == 3


@pytest.mark.parametrize("dtype,n,whole", [(np.float32, 100, 64), (np.float16, 300, 256), (np.float32, 40, 0)])
def test_compare_count_unaligned_tail_is_not_compared(prog, dtype, n, whole):
    a, b = operands(dtype, n, seed=9)
    d0 = np.full(64, SENTINEL, np.uint8)
    res = prog.run(CASE[dtype], a=a, b=b, d0=d0, p=params(0, n), mode=np.int64(LE))
    d = res.out("d", np.uint8)
    np.testing.assert_array_equal(d[: whole // 8], np.packbits(a[:whole] <= b[:whole], bitorder="little"))
    assert np.all(d[whole // 8:] == SENTINEL)
    (w,) = res.warnings
    assert w.code == "compare-count-unaligned" and f"last {n - whole}" in w.message
    assert w.line == marker_line("@compare-site")


# ---- Compares / CompareScalar ---------------------------------------------------------------------

@pytest.mark.parametrize("form", [1, 2])  # Compares, CompareScalar (its former name)
@pytest.mark.parametrize("mode", [LT, GE, NE])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_compares_scalar_count(prog, form, mode, dtype):
    a, b = operands(dtype, 256, seed=4)
    b[0] = 1.0  # the scalar is b[0]
    res = prog.run(CASE[dtype], a=a, b=b, d0=np.zeros(64, np.uint8), p=params(form, 256), mode=np.int64(mode))
    np.testing.assert_array_equal(res.out("d", np.uint8)[:32], np.packbits(OPS[mode](a, dtype(1.0)), bitorder="little"))


# ---- mask/repeat forms: the mask is ignored on Atlas A2, results are contiguous ------------------

def strided(x, per, repeat, blk, rep):
    epb = 32 // x.itemsize
    return np.array([[x[r * rep * epb + (i // epb) * blk * epb + i % epb] for i in range(per)] for r in range(repeat)])


@pytest.mark.parametrize("form,mask,strides", [
    (3, 64, (1, 1, 8, 8)),        # full mask, contiguous
    (3, 64, (2, 1, 16, 8)),       # src0 block stride 2
    (3, 64, (1, 1, 0, 8)),        # src0 repeat stride 0: the same 64 elements every repeat
    (4, 2**64 - 1, (1, 2, 8, 16)),  # bit-mask form, src1 block stride 2
])
def test_compare_repeat_addressing(prog, form, mask, strides):
    n, repeat = 2048, 3
    a, b = operands(np.float32, n, seed=5)
    blk0, blk1, rep0, rep1 = strides
    res = prog.run("cmp_f32", a=a, b=b, d0=np.full(64, SENTINEL, np.uint8),
                   p=params(form, mask, repeat, blk0, blk1, rep0, rep1, 2**64 - 1), mode=np.int64(GT))
    ref = strided(a, 64, repeat, blk0, rep0) > strided(b, 64, repeat, blk1, rep1)
    d = res.out("d", np.uint8)
    np.testing.assert_array_equal(d[: repeat * 8], np.packbits(ref.reshape(-1), bitorder="little"))
    assert np.all(d[repeat * 8:] == SENTINEL)
    assert not res.warnings


def test_compare_repeat_partial_mask_has_no_effect_and_warns(prog):
    a, b = operands(np.float16, 512, seed=6)
    res = prog.run("cmp_f16", a=a, b=b, d0=np.full(64, SENTINEL, np.uint8), p=params(3, 28, 2, 1, 1, 8, 8),
                   mode=np.int64(EQ))
    d = res.out("d", np.uint8)
    np.testing.assert_array_equal(d[:32], np.packbits(a[:256] == b[:256], bitorder="little"))  # all 128 per repeat
    (w,) = res.warnings
    assert w.code == "compare-mask-ignored"


def test_compares_repeat_with_unary_strides(prog):
    a, b = operands(np.float32, 1024, seed=8)
    b[0] = 0.5
    res = prog.run("cmp_f32", a=a, b=b, d0=np.zeros(64, np.uint8), p=params(5, 64, 2, 2, 0, 16, 0), mode=np.int64(LT))
    ref = strided(a, 64, 2, 2, 16) < np.float32(0.5)
    np.testing.assert_array_equal(res.out("d", np.uint8)[:16], np.packbits(ref.reshape(-1), bitorder="little"))


def test_compare_repeat_zero_is_noop(prog):
    a, b = operands(np.float32, 256)
    res = prog.run("cmp_f32", a=a, b=b, d0=np.full(32, SENTINEL, np.uint8), p=params(3, 64, 0, 1, 1, 8, 8), mode=np.int64(LT))
    assert np.all(res.out("d", np.uint8) == SENTINEL)


# ---- Compare into the CMPMASK register ----------------------------------------------------------

@pytest.mark.parametrize("case,dtype,per", [("cmp_reg_f32", np.float32, 64), ("cmp_reg_f16", np.float16, 128)])
@pytest.mark.parametrize("kind,lo,hi", [(0, 20, 0), (1, 0xF0F0_F0F0_0000_FFFF, 0x8000_0000_0000_0001), (2, 0x0F, 0x3)])
def test_compare_to_register_applies_mask(prog, case, dtype, per, kind, lo, hi):
    a, b = operands(dtype, 256, seed=3)
    res = prog.run(case, a=a, b=b, p=params(kind, lo, hi, 1, 1, n=5), mode=np.int64(LT))
    on = np.arange(per) < lo if kind == 0 else np.array(
        [((lo >> i) & 1) if i < 64 else ((hi >> (i - 64)) & 1) for i in range(per)], dtype=bool)
    bits = np.zeros(128, dtype=bool)
    bits[:per] = (a[:per] < b[:per]) & on
    np.testing.assert_array_equal(res.out("d", np.uint8), np.packbits(bits, bitorder="little"))


# ---- Select -----------------------------------------------------------------------------------------

SEL_CASE = {np.float32: "sel_f32", np.float16: "sel_f16"}
M0, M1, M2 = 0, 1, 2


def sel_inputs(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    sel = rng.integers(0, 256, n // 8 + 64).astype(np.uint8)
    a = (rng.standard_normal(n) * 10).astype(dtype)
    b = (rng.standard_normal(n) * 10).astype(dtype)
    return sel, a, b


def bits_of(sel):
    return np.unpackbits(sel, bitorder="little").astype(bool)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("n", [256, 200, 1000])
def test_select_count_tensor_modes(prog, dtype, n):
    sel, a, b = sel_inputs(dtype, 1024, seed=n)
    per = 256 // np.dtype(dtype).itemsize
    y0 = np.full(1024, -99, dtype)
    bits = bits_of(sel)
    for mode, k in ((M2, np.arange(n)), (M0, np.arange(n) % per)):  # mode 0 reuses the first `per` bits
        res = prog.run(SEL_CASE[dtype], sel=sel, a=a, b=b, y0=y0, p=params(0, mode, n, n=11))
        y = res.out("y", dtype)
        np.testing.assert_array_equal(y[:n], np.where(bits[k], a[:n], b[:n]))
        assert np.all(y[n:] == -99)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_select_count_scalar_mode(prog, dtype):
    n = 333
    sel, a, b = sel_inputs(dtype, 1024, seed=1)
    res = prog.run(SEL_CASE[dtype], sel=sel, a=a, b=b, y0=np.zeros(1024, dtype), p=params(1, M1, n, n=11))
    np.testing.assert_array_equal(res.out("y", dtype)[:n], np.where(bits_of(sel)[:n], a[:n], b[0]))


def test_select_u32_selmask_reads_the_same_bits(prog):
    sel, a, b = sel_inputs(np.float32, 512, seed=2)
    res = prog.run("sel_f32_u32", sel=sel, a=a, b=b, y0=np.zeros(512, np.float32), p=params(0, M2, 512, n=11))
    np.testing.assert_array_equal(res.out("y", np.float32), np.where(bits_of(sel)[:512], a, b))


def select_repeat_ref(sel, a, b, y0, mode, on, repeat, strides, scalar=None):
    dblk, s0blk, s1blk, drep, s0rep, s1rep = strides
    per = 256 // a.itemsize
    epb = 32 // a.itemsize
    bits = bits_of(sel)
    y = y0.copy()
    for r in range(repeat):
        for i in range(per):
            if not on[i]:
                continue
            k = i if mode == M0 else r * per + i
            d = r * drep * epb + (i // epb) * dblk * epb + i % epb
            x0 = r * s0rep * epb + (i // epb) * s0blk * epb + i % epb
            x1 = r * s1rep * epb + (i // epb) * s1blk * epb + i % epb
            y[d] = a[x0] if bits[k] else (scalar if mode == M1 else b[x1])
    return y


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("mode", [M0, M1, M2])
@pytest.mark.parametrize("form,lo,hi,strides", [
    ("normal", 50, 0, (1, 1, 1, 8, 8, 8)),
    ("bits", 0xFFFF_0000_F0F0_0F0F, 0x0123_4567_89AB_CDEF, (1, 1, 1, 8, 8, 8)),
    ("normal", 64, 0, (2, 1, 1, 16, 8, 8)),
    ("normal", 64, 0, (1, 1, 2, 8, 8, 16)),
])
def test_select_repeat_forms(prog, dtype, mode, form, lo, hi, strides):
    sel, a, b = sel_inputs(dtype, 2048, seed=mode)
    per = 256 // np.dtype(dtype).itemsize
    repeat = 3
    y0 = np.full(2048, 7, dtype)
    kind = {("normal", False): 2, ("bits", False): 3, ("normal", True): 4, ("bits", True): 6}[(form, mode == M1)]
    p = params(kind, mode, lo, hi, repeat, *strides, n=11)
    res = prog.run(SEL_CASE[dtype], sel=sel, a=a, b=b, y0=y0, p=p)
    on = np.arange(per) < lo if form == "normal" else np.array(
        [((lo >> i) & 1) if i < 64 else ((hi >> (i - 64)) & 1) for i in range(per)], dtype=bool)
    ref = select_repeat_ref(sel, a, b, y0, mode, on, repeat, strides, scalar=b[0])
    np.testing.assert_array_equal(res.out("y", dtype), ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("mode", [M0, M1, M2])
def test_select_without_mask_uses_cmpmask_and_vector_mask(prog, dtype, mode):
    sel, a, b = sel_inputs(dtype, 1024, seed=10 + mode)
    per = 256 // np.dtype(dtype).itemsize
    lo, hi = 0x0FF0_0FF0_FFFF_0001, 0xFFFF_FFFF_0000_0000
    repeat = 2
    y0 = np.full(1024, 5, dtype)
    strides = (1, 1, 1, 8, 8, 8)
    res = prog.run(SEL_CASE[dtype], sel=sel, a=a, b=b, y0=y0, p=params(5, mode, lo, hi, repeat, *strides, n=11))
    on = np.array([((lo >> i) & 1) if i < 64 else ((hi >> (i - 64)) & 1) for i in range(per)], dtype=bool)
    np.testing.assert_array_equal(res.out("y", dtype), select_repeat_ref(sel, a, b, y0, mode, on, repeat, strides, b[0]))


@pytest.mark.parametrize("form,mode", [(0, M1), (1, M0), (1, M2)])
def test_select_mode_that_does_not_fit_the_call_is_an_error(prog, form, mode):
    sel, a, b = sel_inputs(np.float32, 256)
    res = prog.run("sel_f32", sel=sel, a=a, b=b, y0=np.zeros(256, np.float32), p=params(form, mode, 256, n=11),
                   expect_ok=False)
    (err,) = res.errors
    assert err.code == "select-bad-mode" and res.run.returncode == 3
    assert err.line == marker_line("@select-site") + form


def test_select_mode2_selmask_too_short_is_out_of_bounds(prog):
    sel = np.zeros(32, np.uint8)  # 256 bits, but 1024 elements need 1024 bits
    a = np.ones(1024, np.float32)
    res = prog.run("sel_f32", sel=sel, a=a, b=a, y0=np.zeros(1024, np.float32), p=params(0, M2, 1024, n=11),
                   expect_ok=False)
    assert res.errors[0].code == "ub-out-of-bounds" and "selMask bit 256" in res.errors[0].message
