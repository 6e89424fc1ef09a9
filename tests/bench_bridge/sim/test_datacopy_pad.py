"""DataCopyPad checked against an independent numpy model of the documented layout rules:
GM-side strides in bytes, UB-side strides in 32-byte blocks, every UB row 32-byte aligned and
padded to 32 bytes (left/right padding values, dummy tail), UB->GM writes exactly blockLen bytes.
Also the strided-block DataCopy(..., DataCopyParams) forms (32-byte units on both sides)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("datacopy_pad.cpp")

SENTINEL = -7.0


def marker_line(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "datacopy_pad.cpp").read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


def params(count, blen, sstride=0, dstride=0, is_pad=0, left=0, right=0, raw_pad=0, gm_off=0, old=0, set_pad=0, ub_off=0,
           prime=0):
    return np.array([count, blen, sstride, dstride, is_pad, left, right, raw_pad, gm_off, old, set_pad, ub_off, prime],
                    dtype=np.int64)


def ref_pad_in(gm: np.ndarray, ub_elems: int, count, blen, sstride, dstride, left, right, pad, gm_off=0, ub_off=0):
    """Expected UB contents after DataCopyPad GM->UB, from the documented rules."""
    dt = gm.dtype
    es = dt.itemsize
    epb = 32 // es
    n = blen // es
    used = left + n + right
    row = -(-used // epb) * epb
    out = np.full(ub_elems, SENTINEL).astype(dt)
    raw = gm.view(np.uint8)[gm_off * es:]
    for r in range(count):
        g = r * (blen + sstride)                      # GM: bytes
        data = raw[g:g + blen].copy().view(dt)
        d = ub_off + r * (row + dstride * epb)        # UB: 32-byte blocks
        out[d:d + left] = pad
        out[d + left:d + left + n] = data
        out[d + left + n:d + used] = pad
        out[d + used:d + row] = data[0] if left == 0 and right == 0 else pad
    return out


def run_in(prog, case, gm, ub_elems, p, pad_value=0.0, set_value=0.0, prime_value=0.0, **kw):
    v = np.array([pad_value, SENTINEL, set_value, prime_value], dtype=np.float64)
    return prog.run(case, g=gm, p=p, v=v, ub=np.int64(ub_elems), **kw)


def test_pad_in_hand_computed_float_layout(prog):
    # 2 rows of 3 floats (12 B), GM rows 4 bytes apart (srcStride 4 B = 1 float), UB rows 1 block apart,
    # leftPadding 1, rightPadding 2, pad value 9: row = [9, a, b, c, 9, 9, 9, 9] then one skipped block.
    gm = np.arange(1, 11, dtype=np.float32)
    res = run_in(prog, "pad_in_f32", gm, 32, params(2, 12, 4, 1, is_pad=1, left=1, right=2), pad_value=9.0)
    z = res.out("z", np.float32)
    s = SENTINEL
    expect = [9, 1, 2, 3, 9, 9, 9, 9] + [s] * 8 + [9, 5, 6, 7, 9, 9, 9, 9] + [s] * 8
    np.testing.assert_array_equal(z, np.array(expect, np.float32))
    assert not res.warnings


@pytest.mark.parametrize(
    "count,blen,sstride,dstride,is_pad,left,right,pad",
    [
        (1, 32, 0, 0, 0, 0, 0, 0.0),        # aligned: plain copy, no padding
        (3, 20, 0, 0, 0, 0, 0, 0.0),        # 5 floats per row, dummy repeats the row's first element
        (4, 12, 8, 2, 1, 0, 5, 3.5),        # rightPadding fills to exactly one block
        (2, 28, 1, 0, 1, 1, 0, -2.0),       # GM stride of one byte: rows start mid-element
        (3, 36, 0, 1, 1, 2, 3, 0.25),       # a row spanning two blocks, with both paddings and dummy
        (5, 4, 0, 0, 1, 0, 0, 1.0),         # isPad with zero paddings: dummy is the first element
    ],
)
def test_pad_in_float_matches_layout_model(prog, count, blen, sstride, dstride, is_pad, left, right, pad):
    rng = np.random.default_rng(count * 100 + blen)
    gm = rng.standard_normal(200).astype(np.float32)
    ub = 128
    res = run_in(prog, "pad_in_f32", gm, ub, params(count, blen, sstride, dstride, is_pad, left, right), pad_value=pad)
    np.testing.assert_array_equal(res.out("z", np.float32),
                                  ref_pad_in(gm, ub, count, blen, sstride, dstride, left, right, pad))


@pytest.mark.parametrize(
    "case,dtype,count,blen,sstride,dstride,left,right,pad",
    [
        ("pad_in_f16", np.float16, 3, 22, 6, 1, 2, 3, 0.333),     # half: 11 elements, pad rounded to half
        ("pad_in_f16", np.float16, 2, 64, 0, 0, 16, 0, -1.5),     # leftPadding of a full 32-byte block
        ("pad_in_i8", np.int8, 3, 47, 1, 1, 0, 0, 0),             # the documented 47-byte example: dummy = first byte
        ("pad_in_i8", np.int8, 2, 5, 3, 0, 7, 20, -3),
        ("pad_in_i32", np.int32, 3, 12, 4, 0, 1, 1, -9),
        ("pad_in_i64", np.int64, 2, 24, 8, 1, 1, 0, 0),           # 64-bit: paddingValue must be 0
    ],
)
def test_pad_in_other_types(prog, case, dtype, count, blen, sstride, dstride, left, right, pad):
    rng = np.random.default_rng(7)
    gm = (rng.standard_normal(300) * 50).astype(dtype)
    ub = 256
    res = run_in(prog, case, gm, ub, params(count, blen, sstride, dstride, 1, left, right), pad_value=pad)
    expect = ref_pad_in(gm, ub, count, blen, sstride, dstride, left, right, np.array(pad).astype(dtype))
    np.testing.assert_array_equal(res.out("z", dtype), expect)


def test_pad_in_bf16_pad_value_is_rounded_to_bf16(prog):
    gm = np.arange(64, dtype=np.float32)
    gm16 = (gm.view(np.uint32) >> 16).astype(np.uint16)  # exact bf16 values 0..63
    res = run_in(prog, "pad_in_bf16", gm16, 64, params(2, 6, 0, 0, 1, 0, 4), pad_value=1.0 + 2.0**-9)
    z = res.out("z", np.uint16)
    one = 0x3F80  # 1 + 2^-9 rounds to 1.0 in bf16 (ties to even)
    assert list(z[:16]) == [0, 0x3F80, 0x4000, one, one, one, one] + [one] * 9
    assert list(z[16:19]) == [0x4040, 0x4080, 0x40A0]


def test_pad_in_old_form_uses_raw_bits_and_16bit_params(prog):
    gm = np.arange(100, dtype=np.float32)
    raw = int(np.float32(4.0).view(np.uint32))
    res = run_in(prog, "pad_in_f32", gm, 64, params(3, 8, 4, 1, is_pad=1, left=0, right=3, raw_pad=raw, old=1))
    np.testing.assert_array_equal(res.out("z", np.float32), ref_pad_in(gm, 64, 3, 8, 4, 1, 0, 3, 4.0))


def test_pad_in_uses_set_pad_value_when_ispad_false(prog):
    gm = np.arange(50, dtype=np.float32)
    res = run_in(prog, "pad_in_f32", gm, 32, params(2, 8, 0, 0, is_pad=0, left=2, right=1, set_pad=1), set_value=6.0)
    np.testing.assert_array_equal(res.out("z", np.float32), ref_pad_in(gm, 32, 2, 8, 0, 0, 2, 1, 6.0))


def test_pad_register_keeps_value_of_an_earlier_ispad_copy(prog):
    gm = np.arange(50, dtype=np.float32)
    res = run_in(prog, "pad_in_f32", gm, 32, params(2, 8, 0, 0, is_pad=0, left=1, right=1, prime=1), prime_value=-4.0)
    np.testing.assert_array_equal(res.out("z", np.float32), ref_pad_in(gm, 32, 2, 8, 0, 0, 1, 1, -4.0))


def test_pad_from_never_set_register_is_visible_garbage(prog):
    gm = np.arange(50, dtype=np.float32)
    res = run_in(prog, "pad_in_f32", gm, 16, params(1, 8, 0, 0, is_pad=0, left=1, right=0))
    z = res.out("z", np.float32)
    assert np.isnan(z[0]) and z.view(np.uint32)[0] == 0xFFFFFFFF
    np.testing.assert_array_equal(z[1:3], gm[:2])
    assert np.all(np.isnan(z[3:8]))


@pytest.mark.parametrize("count,blen", [(0, 32), (3, 0)])
def test_pad_in_zero_count_or_length_is_a_no_op(prog, count, blen):
    gm = np.arange(50, dtype=np.float32)
    res = run_in(prog, "pad_in_f32", gm, 32, params(count, blen, is_pad=1, right=2), pad_value=1.0)
    np.testing.assert_array_equal(res.out("z", np.float32), np.full(32, SENTINEL, np.float32))


def ref_pad_out(ub: np.ndarray, z0: np.ndarray, count, blen, sstride, dstride, gm_off=0, ub_off=0):
    dt = ub.dtype
    es = dt.itemsize
    epb = 32 // es
    n = blen // es
    row = -(-n // epb) * epb
    out = z0.copy().view(np.uint8)
    for r in range(count):
        s = ub_off + r * (row + sstride * epb)        # UB: 32-byte blocks
        g = gm_off * es + r * (blen + dstride)         # GM: bytes
        out[g:g + blen] = ub[s:s + n].view(np.uint8)
    return out.view(dt)


@pytest.mark.parametrize(
    "case,dtype,count,blen,sstride,dstride,old",
    [
        ("pad_out_f32", np.float32, 1, 20, 0, 0, 0),     # 5 floats: exactly 20 bytes reach GM
        ("pad_out_f32", np.float32, 4, 12, 1, 8, 0),     # UB rows 1 block apart, GM rows 8 bytes apart
        ("pad_out_f32", np.float32, 3, 40, 0, 2, 1),     # old DataCopyParams form; GM rows mid-element
        ("pad_out_f16", np.float16, 3, 30, 2, 6, 0),
        ("pad_out_i8", np.int8, 5, 47, 1, 1, 0),
        ("pad_out_i64", np.int64, 2, 8, 0, 16, 0),
    ],
)
def test_pad_out_writes_exactly_blocklen_bytes(prog, case, dtype, count, blen, sstride, dstride, old):
    rng = np.random.default_rng(blen)
    ub = (rng.standard_normal(512 // np.dtype(dtype).itemsize * 4) * 30).astype(dtype)
    z0 = np.full(300, 77).astype(dtype)
    p = params(count, blen, sstride, dstride, old=old)
    res = prog.run(case, u=ub, z0=z0, p=p)
    np.testing.assert_array_equal(res.out("z", dtype).view(np.uint8), ref_pad_out(ub, z0, count, blen, sstride, dstride).view(np.uint8))


def test_pad_out_hand_computed(prog):
    ub = np.arange(1, 33, dtype=np.float32)
    z0 = np.zeros(12, np.float32)
    res = prog.run("pad_out_f32", u=ub, z0=z0, p=params(2, 12, 1, 4))  # 3 floats per row, skip 1 block in UB, 4 B in GM
    np.testing.assert_array_equal(res.out("z", np.float32), [1, 2, 3, 0, 17, 18, 19, 0, 0, 0, 0, 0])


def test_roundtrip_unaligned_rows_through_vector_add(prog):
    rows, cols = 5, 21  # 42-byte rows: padded to 64 bytes in UB
    rng = np.random.default_rng(3)
    x = rng.standard_normal(rows * cols).astype(np.float16)
    y = rng.standard_normal(rows * cols).astype(np.float16)
    res = prog.run("roundtrip_f16", x=x, y=y, rows=np.int64(rows), cols=np.int64(cols))
    np.testing.assert_array_equal(res.out("z", np.float16), x + y)


def test_roundtrip_gm_out_of_bounds_is_not_reported_for_exact_rows(prog):
    # the last row ends exactly at the end of the GM buffers: DataCopyPad must not touch the padding in GM
    rows, cols = 1, 3
    x = np.array([1, 2, 3], np.float16)
    res = prog.run("roundtrip_f16", x=x, y=x, rows=np.int64(rows), cols=np.int64(cols))
    np.testing.assert_array_equal(res.out("z", np.float16), [2, 4, 6])
    assert not res.errors


# ---- hardware rules of DataCopyPad ------------------------------------------------------------

@pytest.mark.parametrize(
    "p,code,text,marker",
    [
        (params(1, 32, ub_off=3), "ub-misaligned", "32-byte aligned", "@pad-in-ext"),
        (params(1, 32, ub_off=3, old=1), "ub-misaligned", "32-byte aligned", "@pad-in-old"),
        (params(5, 40), "ub-out-of-bounds", "", "@pad-in-ext"),           # 5 rows of 64 B > 32 floats of UB
        (params(2, 100, 350), "gm-out-of-bounds", "bytes [450, 550)", "@pad-in-ext"),
        (params(1, 32, gm_off=130), "gm-out-of-bounds", "", "@pad-in-ext"),  # past the 512-byte granule
        (params(1, 10), "datacopypad-params", "multiple of the 4-byte", "@pad-in-ext"),
        (params(1, 8, is_pad=1, left=9), "datacopypad-params", "exceed 32 bytes", "@pad-in-ext"),
        (params(4096, 4), "datacopypad-params", "outside [0, 4095]", "@pad-in-ext"),
        (params(1, 2097152), "datacopypad-params", "outside [0, 2097151]", "@pad-in-ext"),
    ],
)
def test_pad_in_rule_violations_are_located(prog, p, code, text, marker):
    gm = np.zeros(100, np.float32)
    res = run_in(prog, "pad_in_f32", gm, 32, p, expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    assert err.code == code, err
    assert text in err.message
    assert err.file.endswith("datacopy_pad.cpp") and err.line == marker_line(marker)


def test_pad_in_nonzero_pad_for_64bit_is_rejected(prog):
    gm = np.zeros(40, np.int64)
    res = run_in(prog, "pad_in_i64", gm, 32, params(1, 8, is_pad=1, right=1), pad_value=5, expect_ok=False)
    assert res.run.returncode == 3
    assert res.errors[0].code == "datacopypad-params" and "64-bit" in res.errors[0].message


@pytest.mark.parametrize(
    "p,code,marker",
    [
        (params(3, 40, 0, 250), "gm-out-of-bounds", "@pad-out-ext"),    # 3rd row at byte 580: past the 512-byte granule of 100 B
        (params(1, 20, gm_off=130), "gm-out-of-bounds", "@pad-out-ext"),
        (params(1, 20, ub_off=2), "ub-misaligned", "@pad-out-ext"),
        (params(2, 40, 6), "ub-out-of-bounds", "@pad-out-ext"),                  # UB rows 64 B + 6 blocks apart
        (params(1, 6), "datacopypad-params", "@pad-out-ext"),
        (params(3, 40, 0, 250, old=1), "gm-out-of-bounds", "@pad-out-old"),
    ],
)
def test_pad_out_rule_violations_are_located(prog, p, code, marker):
    res = prog.run("pad_out_f32", u=np.zeros(64, np.float32), z0=np.zeros(25, np.float32), p=p, expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    assert err.code == code, err
    assert err.line == marker_line(marker)


def test_pad_out_write_past_allocation_end_inside_granule_warns(prog):
    # 3 rows x 41 B = 123 B into 100 B of GM: past the end, inside the 512-byte granule
    res = prog.run("pad_out_f32", u=np.arange(64, dtype=np.float32), z0=np.zeros(25, np.float32), p=params(3, 40, 0, 1))
    assert not res.errors
    assert any(w.code == "gm-write-past-end" and w.line == marker_line("@pad-out-ext") for w in res.warnings), res.warnings


# ---- strided-block DataCopy with DataCopyParams (units of 32 bytes on both sides) --------------

def ref_blocks(x, ub_elems, z0, count, blen, ss, ds, ss2, ds2):
    ub = np.full(ub_elems, -1.0, np.float32)
    z = z0.copy()
    for b in range(count):
        s = b * (blen + ss) * 8
        d = b * (blen + ds) * 8
        ub[d:d + blen * 8] = x[s:s + blen * 8]
    for b in range(count):
        s = b * (blen + ss2) * 8
        d = b * (blen + ds2) * 8
        z[d:d + blen * 8] = ub[s:s + blen * 8]
    return ub, z


@pytest.mark.parametrize(
    "count,blen,ss,ds,ss2,ds2",
    [(1, 4, 0, 0, 0, 0), (3, 2, 1, 0, 0, 2), (4, 1, 3, 1, 1, 0), (2, 3, 0, 2, 2, 1)],
)
def test_datacopy_strided_blocks(prog, count, blen, ss, ds, ss2, ds2):
    x = np.arange(1, 257, dtype=np.float32)
    z0 = np.zeros(200, np.float32)
    ub_elems = 128
    p = np.array([count, blen, ss, ds, ss2, ds2], np.int64)
    res = prog.run("blocks_f32", x=x, z0=z0, p=p, ub=np.int64(ub_elems))
    ub, z = ref_blocks(x, ub_elems, z0, count, blen, ss, ds, ss2, ds2)
    np.testing.assert_array_equal(res.out("ub", np.float32), ub)
    np.testing.assert_array_equal(res.out("z", np.float32), z)


def test_datacopy_strided_blocks_out_of_gm_is_located(prog):
    x = np.arange(64, dtype=np.float32)  # 8 blocks of GM; 3 blocks of 2 with gap 20 need 46, past the 512-byte granule
    p = np.array([3, 2, 20, 0, 0, 0], np.int64)
    res = prog.run("blocks_f32", x=x, z0=np.zeros(64, np.float32), p=p, ub=np.int64(64), expect_ok=False)
    assert res.run.returncode == 3
    assert res.errors[0].code == "gm-out-of-bounds"
    assert res.errors[0].line == marker_line("@blocks-in")


def test_datacopy_strided_blocks_out_of_ub_is_located(prog):
    x = np.arange(256, dtype=np.float32)
    p = np.array([2, 4, 0, 1, 0, 0], np.int64)  # UB needs 9 blocks, has 8
    res = prog.run("blocks_f32", x=x, z0=np.zeros(256, np.float32), p=p, ub=np.int64(64), expect_ok=False)
    assert res.errors[0].code == "ub-out-of-bounds"
    assert res.errors[0].line == marker_line("@blocks-in")


def test_pad_in_read_past_allocation_end_inside_granule_warns(prog):
    # 100 floats = 400 bytes; reading 32 bytes at float 95 ends at byte 412: past the end of the
    # allocation but inside its 512-byte granule, which the hardware reads silently
    gm = np.arange(100, dtype=np.float32)
    res = run_in(prog, "pad_in_f32", gm, 32, params(1, 32, gm_off=95))
    assert not res.errors
    assert any(w.code == "gm-read-past-end" and "bytes [380, 412) of a 400-byte device allocation" in w.message
               for w in res.warnings), res.warnings
