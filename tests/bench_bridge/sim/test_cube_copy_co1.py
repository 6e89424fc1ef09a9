"""DataCopy out of L0C (CO1 -> GM) with DataCopyCO12DstParams, against numpy models of the documented
layouts. L0C holds NZ with 16 x 16 fractals, `srcStride` rows per fractal column. With nz2ndEn the move
writes ND rows `dstStride` elements apart, for the ndNum matrices that SetFixpipeNz2ndFlag describes.
Without it the move keeps NZ, one column block every dstStride * 32 bytes. The conversions are
F322F16, REQ8 with a scalar word from SetFixpipePreQuantFlag, and VDEQF16 with a per-column table in
the fixpipe buffer (SetFixPipeConfig). ReLU comes after the conversion. Rule breaches are reported
on the user's line."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cube_copy_co1.cpp")
SOURCE = CPP_DIR / "cube_copy_co1.cpp"
RNG = np.random.default_rng(11)
NOQUANT, F322F16, DEQF16, VDEQF16, REQ8 = 0, 1, 3, 4, 7


def up(x: int, a: int) -> int:
    return -(-x // a) * a


def l0c_nz(c: np.ndarray, rows: int) -> np.ndarray:
    """[m, n] -> NZ: column blocks of 16, each `rows` rows of 16 contiguous elements."""
    m, n = c.shape
    pad = np.zeros((rows, up(n, 16)), c.dtype)
    pad[:m, :n] = c
    return pad.reshape(rows, -1, 16).transpose(1, 0, 2).ravel()


def quant_word(scale: float, offset: int = 0, signed: bool = False) -> np.uint64:
    bits = int(np.array(scale, np.float32).view(np.uint32)) & 0xFFFFE000
    return np.uint64(bits | ((offset & 0x1FF) << 37) | (int(signed) << 46))


def hw_scale(scale: float) -> np.float32:
    """The scale the hardware uses: float32 with the 13 low mantissa bits cleared."""
    return np.array(int(np.array(scale, np.float32).view(np.uint32)) & 0xFFFFE000, np.uint32).view(np.float32)


def params(n, m, src_stride, dst_stride, quant=NOQUANT, relu=0, nz2nd=0, split=0, nd=1, src_nd=0, dst_nd=0,
           deq=np.uint64(0), table=0):
    return np.array([n, m, src_stride, dst_stride, quant, relu, nz2nd, split, nd, src_nd, dst_nd, np.int64(deq.astype(np.int64)),
                     table, 0, 0, 0], np.int64)


def test_float_to_half_nd_with_relu_for_two_matrices(prog):
    m, n, rows, dst_stride, src_nd, dst_nd = 20, 40, 32, 48, 7, 1000
    mats = [RNG.uniform(-4, 4, (m, n)).astype(np.float32) for _ in range(2)]
    l0c = np.zeros(2 * src_nd * 256, np.float32)
    for i, c in enumerate(mats):
        nz = l0c_nz(c, rows)
        l0c[i * src_nd * 256: i * src_nd * 256 + nz.size] = nz
    out0 = np.full(2048, 7.0, np.float16)  # sentinel
    p = params(n, m, rows, dst_stride, F322F16, relu=1, nz2nd=1, nd=2, src_nd=src_nd, dst_nd=dst_nd)
    res = prog.run("co1_f16_f32", l0c=l0c, out=out0, p=p, table=np.zeros(256, np.uint64))
    assert not res.errors, res.run.stderr
    got = res.out("out", np.float16)
    want = out0.copy()
    for i, c in enumerate(mats):
        for r in range(m):
            s = i * dst_nd + r * dst_stride
            want[s: s + n] = np.maximum(c[r].astype(np.float16), np.float16(0))
    np.testing.assert_array_equal(got, want)


def test_int32_requant_to_int8_keeps_nz_with_scalar_word(prog):
    m, n, rows, dst_stride = 17, 64, 32, 20
    c = RNG.integers(-3000, 3000, (m, n)).astype(np.int32)
    scale, offset = 0.05, -3
    out0 = np.full(4096, 99, np.int8)
    p = params(n, m, rows, dst_stride, REQ8, deq=quant_word(scale, offset, True))
    res = prog.run("co1_i8_i32", l0c=l0c_nz(c, rows), out=out0, p=p, table=np.zeros(256, np.uint64))
    assert not res.errors, res.run.stderr
    got = res.out("out", np.int8)
    want = out0.copy()
    q = np.clip(np.rint(c.astype(np.float64) * hw_scale(scale)) + offset, -128, 127).astype(np.int8)
    for col in range(n):  # int8 NZ: 32-column blocks, dstStride * 32 bytes apart, rows 32 bytes apart
        for r in range(m):
            want[(col // 32) * dst_stride * 32 + r * 32 + col % 32] = q[r, col]
    np.testing.assert_array_equal(got, want)


def test_int32_dequant_to_half_with_a_per_column_table(prog):
    m, n, rows = 16, 32, 16
    c = RNG.integers(-500, 500, (m, n)).astype(np.int32)
    scales = RNG.uniform(0.01, 0.2, n).astype(np.float32)
    table = np.zeros(256, np.uint64)
    table[:n] = [quant_word(float(s)) for s in scales]
    out0 = np.zeros(m * n, np.float16)
    p = params(n, m, rows, n, VDEQF16, nz2nd=1, nd=1, table=1)
    res = prog.run("co1_f16_i32", l0c=l0c_nz(c, rows), out=out0, p=p, table=table)
    assert not res.errors, res.run.stderr
    got = res.out("out", np.float16).reshape(m, n)
    want = (c.astype(np.float32) * np.array([hw_scale(float(s)) for s in scales], np.float32)).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_float_nz_with_channel_split_uses_eight_column_blocks(prog):
    m, n, rows, dst_stride = 16, 24, 16, 16
    c = RNG.uniform(-1, 1, (m, n)).astype(np.float32)
    out0 = np.full(1024, -5.0, np.float32)
    p = params(n, m, rows, dst_stride, NOQUANT, split=1)
    res = prog.run("co1_f32_f32", l0c=l0c_nz(c, rows), out=out0, p=p, table=np.zeros(256, np.uint64))
    assert not res.errors, res.run.stderr
    got = res.out("out", np.float32)
    want = out0.copy()
    for col in range(n):
        for r in range(m):
            want[(col // 8) * dst_stride * 8 + r * 8 + col % 8] = c[r, col]
    np.testing.assert_array_equal(got, want)


def marker_line(marker: str) -> int:
    for i, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if line.rstrip().endswith(marker):
            return i
    raise AssertionError(marker)


@pytest.mark.parametrize("case,code,marker,text", [
    ("vector_quant_without_table", "co1-copy-param", "@no-table", "SetFixPipeConfig"),
    ("nz_n_unaligned", "co1-copy-param", "@nz-n", "multiple of 16"),
    ("source_in_l1", "wrong-position", "@from-l1", "CO1 (L0C)"),
    ("nd_to_l1", "co1-copy-param", "@nd-to-l1", "NZ only"),
])
def test_rule_fires_on_the_users_line(prog, case, code, marker, text):
    res = prog.run(case, expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    assert err.code == code and err.line == marker_line(marker), (err, res.run.stderr)
    assert text in err.message, err.message
