"""Gather, Transpose, Brcb and CreateVecIndex checked against independent numpy models of the
documented semantics, including the hardware-rule diagnostics."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("reduce_gather.cpp")

GATHER = {np.float32: "gather_f32", np.float16: "gather_f16", np.int16: "gather_i16"}


def marker_line(marker: str) -> int:
    for i, line in enumerate((CPP_DIR / "reduce_gather.cpp").read_text().splitlines(), 1):
        if marker in line:
            return i
    raise AssertionError(marker)


def pad32(a: np.ndarray) -> np.ndarray:
    per = 32 // a.itemsize
    n = -(-len(a) // per) * per
    return np.concatenate([a, np.zeros(n - len(a), a.dtype)])


def as_i64(v: int) -> int:
    return int(np.array([v & (2**64 - 1)], np.uint64).view(np.int64)[0])


def run_gather(prog, dtype, src, off, nd, *, mode=0, mask=0, hi=0, repeat=0, dst_rep=8, base=0, expect_ok=True):
    dst = pad32(np.full(nd, -3, dtype))
    p = np.array([mode, as_i64(mask), as_i64(hi), repeat, dst_rep, base], np.int64)
    res = prog.run(GATHER[dtype], src=pad32(np.asarray(src, dtype)), off=pad32(np.asarray(off, np.uint32)), dst=dst, p=p,
                   expect_ok=expect_ok)
    return res, dst


# ---- Gather --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16])
def test_gather_count_form_reads_byte_offsets(prog, dtype):
    rng = np.random.default_rng(1)
    size = np.dtype(dtype).itemsize
    src = (rng.standard_normal(300) * 100).astype(dtype)
    count = 173  # not a multiple of a repeat
    base = 64  # srcBaseAddr in bytes: element 64 / size is "element 0" of the offsets
    idx = rng.integers(0, 300 - base // size, count)
    res, dst0 = run_gather(prog, dtype, src, idx * size, 192, mode=0, mask=count, base=base)
    out = res.out("dst", dtype)
    np.testing.assert_array_equal(out[:count], src[base // size + idx])
    np.testing.assert_array_equal(out[count:], dst0[count:])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("bits", [False, True])
def test_gather_mask_form(prog, dtype, bits):
    size = np.dtype(dtype).itemsize
    per = 256 // size
    epb = 32 // size
    rng = np.random.default_rng(2)
    src = np.arange(512).astype(dtype)
    repeat, dst_rep = 3, 10
    idx = rng.integers(0, 512, repeat * per)
    if bits:
        m = (1 << 3) | (1 << 40) | (1 << 63) | ((1 << 100) if per == 128 else 0)
        on = np.array([(m >> i) & 1 for i in range(per)], bool)
        kw = dict(mode=2, mask=m & (2**64 - 1), hi=m >> 64)
    else:
        on = np.arange(per) < per - 11
        kw = dict(mode=1, mask=per - 11)
    nd = repeat * dst_rep * epb
    res, dst0 = run_gather(prog, dtype, src, idx * size, nd, repeat=repeat, dst_rep=dst_rep, **kw)
    expect = dst0.copy()
    for r in range(repeat):
        for i in range(per):
            if on[i]:
                expect[r * dst_rep * epb + i] = src[idx[r * per + i]]
    np.testing.assert_array_equal(res.out("dst", dtype), expect)


def test_gather_offset_outside_src_is_a_located_error(prog):
    src = np.arange(64, dtype=np.float32)
    off = np.array([0, 4, 256, 8], np.uint32)  # byte 256 = element 64: one past the end
    res, _ = run_gather(prog, np.float32, src, off, 8, mode=0, mask=4, expect_ok=False)
    err = res.errors[0]
    assert err.code == "ub-out-of-bounds"
    assert "element 2" in err.message and "256" in err.message
    assert err.line == marker_line("@gather-site")


def test_gather_base_address_counts_towards_the_bound(prog):
    src = np.arange(64, dtype=np.float32)
    res, _ = run_gather(prog, np.float32, src, np.array([252], np.uint32), 8, mode=0, mask=1, base=4, expect_ok=False)
    assert res.errors[0].code == "ub-out-of-bounds"


def test_gather_offset_not_a_multiple_of_the_element_size(prog):
    src = np.arange(64, dtype=np.float32)
    res, _ = run_gather(prog, np.float32, src, np.array([6], np.uint32), 8, mode=0, mask=1, expect_ok=False)
    assert res.errors[0].code == "gather-misaligned-offset"


# ---- Transpose -----------------------------------------------------------------------------------------------

TT = dict(ND2ND_B16=10, NCHW2NHWC=11, NHWC2NCHW=12, NONE=0, NZ2ND_0213=1)


def run_transpose(prog, case, src, *, mode=0, n=0, c=0, h=0, w=0, ttype=10, tmp=0, inplace=0, expect_ok=True):
    p = np.array([mode, n, c, h, w, ttype, tmp, inplace], np.int64)
    return prog.run(case, src=src, p=p, expect_ok=expect_ok)


@pytest.mark.parametrize("case,dtype", [("transpose_f16", np.float16), ("transpose_u16", np.uint16)])
@pytest.mark.parametrize("inplace", [0, 1])
def test_transpose_16x16(prog, case, dtype, inplace):
    src = (np.arange(256) * 3 + 1).astype(dtype)
    res = run_transpose(prog, case, src, inplace=inplace)
    np.testing.assert_array_equal(res.out("dst", dtype), src.reshape(16, 16).T.reshape(-1))


def test_transpose_ext_nd2nd_b16_uint16(prog):
    src = np.arange(256, dtype=np.uint16)
    res = run_transpose(prog, "transpose_u16", src, mode=1, h=16, w=16, ttype=TT["ND2ND_B16"])
    np.testing.assert_array_equal(res.out("dst", np.uint16), src.reshape(16, 16).T.reshape(-1))


def test_transpose_ext_nd2nd_b16_rejects_half(prog):
    res = run_transpose(prog, "transpose_f16", np.zeros(256, np.float16), mode=1, h=16, w=16, ttype=TT["ND2ND_B16"],
                        expect_ok=False)
    assert res.errors[0].code == "unsupported-dtype"


def tmp_bytes(dtype, c, to_nhwc):
    size = np.dtype(dtype).itemsize
    h0, w0 = (32 if size == 1 else 16), 32 // size
    return ((c + 2) if to_nhwc else (2 * c + 1)) * h0 * w0 * size


@pytest.mark.parametrize("case,dtype", [("transpose_f32", np.float32), ("transpose_u8", np.uint8),
                                        ("transpose_f16", np.float16)])
@pytest.mark.parametrize("to_nhwc", [True, False])
def test_transpose_nchw_nhwc(prog, case, dtype, to_nhwc):
    n, c, h, w = 2, 3, 4, 8  # h * w * sizeof(T) is a multiple of 32 for all three types
    rng = np.random.default_rng(3)
    src = rng.integers(0, 200, n * c * h * w).astype(dtype)
    ttype = TT["NCHW2NHWC"] if to_nhwc else TT["NHWC2NCHW"]
    res = run_transpose(prog, case, src, mode=1, n=n, c=c, h=h, w=w, ttype=ttype, tmp=tmp_bytes(dtype, c, to_nhwc))
    if to_nhwc:
        expect = src.reshape(n, c, h, w).transpose(0, 2, 3, 1).reshape(-1)
    else:
        expect = src.reshape(n, h, w, c).transpose(0, 3, 1, 2).reshape(-1)
    np.testing.assert_array_equal(res.out("dst", dtype), expect)


def test_transpose_nchw_tmp_buffer_rule(prog):
    need = tmp_bytes(np.float32, 3, True)  # (3 + 2) * 16 * 8 * 4 = 2560 bytes
    assert need == 2560
    src = np.zeros(2 * 3 * 32, np.float32)
    res = run_transpose(prog, "transpose_f32", src, mode=1, n=2, c=3, h=4, w=8, ttype=TT["NCHW2NHWC"], tmp=need - 32,
                        expect_ok=False)
    err = res.errors[0]
    assert err.code == "transpose-tmp-too-small" and "2560" in err.message


def test_transpose_nchw_rejects_unaligned_plane_and_in_place(prog):
    src = np.zeros(2 * 3 * 12, np.float32)
    res = run_transpose(prog, "transpose_f32", src, mode=1, n=2, c=3, h=3, w=4, ttype=TT["NCHW2NHWC"], tmp=4096,
                        expect_ok=False)  # 12 floats = 48 bytes per plane
    assert res.errors[0].code == "bad-transpose-shape"
    src = np.zeros(2 * 3 * 32, np.float32)
    res = run_transpose(prog, "transpose_f32", src, mode=1, n=2, c=3, h=4, w=8, ttype=TT["NCHW2NHWC"], tmp=4096,
                        inplace=1, expect_ok=False)
    assert res.errors[0].code == "ub-overlap"


def test_transpose_unsupported_type_and_none(prog):
    src = np.arange(256, dtype=np.uint16)
    res = run_transpose(prog, "transpose_u16", src, mode=1, ttype=TT["NZ2ND_0213"], expect_ok=False)
    assert res.errors[0].code == "unsupported-transpose"
    res = run_transpose(prog, "transpose_u16", src, mode=1, ttype=TT["NONE"])
    assert not res.out("dst", np.uint16).any()  # dst (a fresh device buffer copy of zeros) untouched


# ---- Brcb -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case,dtype", [("brcb_f32", np.float32), ("brcb_f16", np.float16)])
@pytest.mark.parametrize("repeat,blk,rep", [(2, 1, 8), (3, 2, 20), (1, 0, 8)])
def test_brcb(prog, case, dtype, repeat, blk, rep):
    epb = 32 // np.dtype(dtype).itemsize
    src = (np.arange(8 * repeat) + 1).astype(dtype)
    nd = (rep * (repeat - 1) + 7 * max(blk, 1) + 1) * epb + epb
    dst0 = pad32(np.full(nd, -1, dtype))
    res = prog.run(case, src=pad32(src), dst=dst0, p=np.array([repeat, blk, rep, 0], np.int64))
    expect = dst0.copy()
    for r in range(repeat):
        for b in range(8):
            start = (r * rep + b * max(blk, 1)) * epb  # dstBlkStride 0 acts as 1
            expect[start:start + epb] = src[r * 8 + b]
    np.testing.assert_array_equal(res.out("dst", dtype), expect)


def test_brcb_documented_example_uint16_like(prog):
    src = (np.arange(16) + 1).astype(np.float16)
    res = prog.run("brcb_f16", src=src, dst=np.zeros(256, np.float16), p=np.array([2, 1, 8, 0], np.int64))
    np.testing.assert_array_equal(res.out("dst", np.float16), np.repeat(src, 16))


def test_brcb_same_buffer_is_an_error(prog):
    res = prog.run("brcb_f32", src=np.ones(64, np.float32), dst=np.zeros(64, np.float32),
                   p=np.array([1, 1, 8, 1], np.int64), expect_ok=False)
    assert res.errors[0].code == "ub-overlap"


# ---- CreateVecIndex ----------------------------------------------------------------------------------------------

VIDX = {np.float32: "vidx_f32", np.float16: "vidx_f16", np.int32: "vidx_i32", np.int16: "vidx_i16"}


def vidx_count_ref(dtype, first, count):
    """The documented construction: block 0 directly, later blocks of repeat 0 from the previous
    block + elements per block, later repeats from the previous repeat + elements per repeat."""
    size = np.dtype(dtype).itemsize
    epb, per = 32 // size, 256 // size
    out = np.zeros(count, dtype)
    for i in range(count):
        if i < epb:
            out[i] = np.array(np.float64(first) + i).astype(dtype)
        elif i < per:
            out[i] = (out[i - epb] + dtype(epb)).astype(dtype)
        else:
            out[i] = (out[i - per] + dtype(per)).astype(dtype)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int16])
@pytest.mark.parametrize("first,count", [(0, 128), (5, 333), (-40, 1000)])
def test_create_vec_index_count_form(prog, dtype, first, count):
    dst0 = pad32(np.full(count + 40, 7, dtype))
    res = prog.run(VIDX[dtype], dst=dst0, p=np.array([0, count, 0, 0, 0, 0, first], np.int64))
    out = res.out("dst", dtype)
    np.testing.assert_array_equal(out[:count], np.arange(first, first + count).astype(dtype))
    np.testing.assert_array_equal(out[count:], dst0[count:])


def test_create_vec_index_half_above_2048_rounds_like_the_documented_construction(prog):
    # above 2048 half cannot hold every integer: values come out rounded (to even), as the
    # documented construction (chained half additions) gives them
    first, count = 2001, 700
    res = prog.run("vidx_f16", dst=np.zeros(704, np.float16), p=np.array([0, count, 0, 0, 0, 0, first], np.int64))
    out = res.out("dst", np.float16)[:count]
    np.testing.assert_array_equal(out, vidx_count_ref(np.float16, first, count))
    assert np.abs(out.astype(np.float64) - np.arange(first, first + count)).max() == 1
    assert out[2049 - first] == 2048 and out[2051 - first] == 2052


@pytest.mark.parametrize("dtype", [np.float32, np.int16])
@pytest.mark.parametrize("bits", [False, True])
def test_create_vec_index_mask_form(prog, dtype, bits):
    size = np.dtype(dtype).itemsize
    per, epb = 256 // size, 32 // size
    repeat, blk, rep = 3, 2, 20
    if bits:
        m = (1 << 1) | (1 << 17) | (1 << 62) | ((1 << 127) if per == 128 else 0)
        on = np.array([(m >> i) & 1 for i in range(per)], bool)
        p = [2, as_i64(m & (2**64 - 1)), as_i64(m >> 64)]
    else:
        on = np.arange(per) < per - 9
        p = [1, per - 9, 0]
    nd = (rep * (repeat - 1) + 7 * blk + 1) * epb
    dst0 = pad32(np.full(nd, 99, dtype))
    res = prog.run(VIDX[dtype], dst=dst0, p=np.array(p + [repeat, blk, rep, 10], np.int64))
    expect = dst0.copy()
    for r in range(repeat):
        for i in range(per):
            if on[i]:
                expect[r * rep * epb + (i // epb) * blk * epb + i % epb] = 10 + r * per + i
    np.testing.assert_array_equal(res.out("dst", dtype), expect)
