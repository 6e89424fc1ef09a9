"""The cube-unit instructions of the emulator (dav-2201) against independent numpy models of the
documented layouts: ND->NZ (Nd2NzParams) byte-exact, LoadData 2D with and without transpose,
LoadDataWithTranspose, Mmad for fp16/bf16/int8/fp32 with init, accumulate and bias, non-aligned
m/n/k, Fixpipe NZ->ND / NZ with quantisation and ReLU, and the 3Dv2 im2col load.

The models build the layouts with reshape/transpose (NZ: fractal columns of 16 x C0 blocks; ZZ for
L0A; ZN for L0B; NZ 16 x 16 for L0C), not with the emulator's index formulas."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("cube_ops.cpp")
RNG = np.random.default_rng(7)


def c0(dtype) -> int:
    return 32 // np.dtype(dtype).itemsize


def up(x: int, a: int) -> int:
    return -(-x // a) * a


def to_nz(a: np.ndarray, rows_align: int) -> np.ndarray:
    """ND [r, c] -> NZ: fractal columns of C0 columns, each rows_align rows of C0 contiguous elements."""
    k = c0(a.dtype)
    r, c = a.shape
    pad = np.zeros((rows_align, up(c, k)), a.dtype)
    pad[:r, :c] = a
    return pad.reshape(rows_align, -1, k).transpose(1, 0, 2).ravel()


def to_zz(a: np.ndarray) -> np.ndarray:
    """L0A: [m, k] in 16 x C0 fractals, fractals row-major, each fractal row-major."""
    k0 = c0(a.dtype)
    m, k = a.shape
    pad = np.zeros((up(m, 16), up(k, k0)), a.dtype)
    pad[:m, :k] = a
    return pad.reshape(up(m, 16) // 16, 16, -1, k0).transpose(0, 2, 1, 3).ravel()


def to_zn(b: np.ndarray) -> np.ndarray:
    """L0B: [k, n] in C0 x 16 fractals, fractals row-major (k outer), each stored as 16 n-rows of C0 k."""
    k0 = c0(b.dtype)
    k, n = b.shape
    pad = np.zeros((up(k, k0), up(n, 16)), b.dtype)
    pad[:k, :n] = b
    return pad.reshape(-1, k0, up(n, 16) // 16, 16).transpose(0, 2, 3, 1).ravel()


def from_l0c(raw: np.ndarray, m: int, n: int) -> np.ndarray:
    """L0C NZ (16 x 16 fractals, M rounded up to 16) -> [m16, n16]."""
    m1, n1 = up(m, 16) // 16, up(n, 16) // 16
    return raw[: m1 * n1 * 256].reshape(n1, m1, 16, 16).transpose(1, 2, 0, 3).reshape(m1 * 16, n1 * 16)


def to_l0c(c: np.ndarray, rows: int) -> np.ndarray:
    """[rows, n16] -> L0C NZ with `rows` rows per fractal column."""
    r, n = c.shape
    pad = np.zeros((rows, up(n, 16)), c.dtype)
    pad[:r, :n] = c
    return pad.reshape(rows, -1, 16).transpose(1, 0, 2).ravel()


def rand(dtype, shape):
    if np.dtype(dtype).kind == "i":
        return RNG.integers(-128, 128, shape).astype(dtype)
    return RNG.uniform(-2, 2, shape).astype(dtype)


# ---- ND -> NZ -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case,dtype,rows,cols", [
    ("nd2nz_f16", np.float16, 37, 50),   # both dims unaligned: the last 32-byte piece is zero-filled
    ("nd2nz_f16", np.float16, 32, 64),
    ("nd2nz_i8", np.int8, 20, 70),
    ("nd2nz_f32", np.float32, 17, 13),
])
def test_nd2nz_single_matrix_is_the_nz_layout_byte_exact(prog, case, dtype, rows, cols):
    x = rand(dtype, (rows, cols))
    ra = up(rows, 16)
    n_out = ra * up(cols, c0(dtype))
    sentinel = np.full(n_out, 99, dtype)
    p = np.array([1, rows, cols, 0, cols, ra, 1, 0], np.int64)
    res = prog.run(case, x=x.ravel(), out=sentinel, p=p)
    got = res.out("out", dtype)
    expect = to_nz(x, ra)
    # rows rows..ra of each fractal column are not written: they keep the sentinel
    mask = np.zeros((ra, up(cols, c0(dtype))), bool)
    mask[:rows] = True
    mask = mask.reshape(ra, -1, c0(dtype)).transpose(1, 0, 2).ravel()
    assert got[mask].tobytes() == expect[mask].tobytes()
    assert (got[~mask] == 99).all()


def test_nd2nz_several_matrices_with_strides_follows_the_documented_loop(prog):
    # two 16 x 40 matrices taken from a [2, 16, 48] GM array (row pitch 48), placed 1024 elements apart,
    # rows 2 blocks apart (dstNzNStride = 2) and fractal columns 40 blocks apart
    dt = np.float16
    src = rand(dt, (2, 16, 48))
    nd, nv, dv, s_mat, s_d, c0s, ns, d_mat = 2, 16, 40, 16 * 48, 48, 40, 2, 1024 + 512
    n_out = d_mat + 3 * c0s * 16 + 16 * ns * 16
    sentinel = np.full(n_out, 99, dt)
    p = np.array([nd, nv, dv, s_mat, s_d, c0s, ns, d_mat], np.int64)
    got = prog.run("nd2nz_f16", x=src.ravel(), out=sentinel, p=p).out("out", dt)
    expect = sentinel.copy()
    flat = src.ravel()
    for i in range(nd):
        for j in range(nv):
            row = flat[i * s_mat + j * s_d: i * s_mat + j * s_d + dv]
            for b in range(-(-dv // 16)):
                piece = np.zeros(16, dt)
                seg = row[b * 16: b * 16 + 16]
                piece[: len(seg)] = seg
                at = i * d_mat + j * ns * 16 + b * c0s * 16
                expect[at: at + 16] = piece
    assert got.tobytes() == expect.tobytes()


# ---- LoadData ---------------------------------------------------------------------------------------------------

def load_params(start=0, repeat=1, src_stride=1, dst_gap=0, transpose=0, to_b=0, with_transpose=0, frac_gap=0):
    return np.array([start, repeat, src_stride, dst_gap, transpose, to_b, with_transpose, frac_gap], np.int64)


@pytest.mark.parametrize("case,dtype", [("load_f16", np.float16), ("load_i8", np.int8), ("load_f32", np.float32)])
def test_loaddata_2d_moves_fractals_with_start_stride_and_gap(prog, case, dtype):
    f = 512 // np.dtype(dtype).itemsize
    src = rand(dtype, 12 * f)
    out = np.full(8 * f, 5, dtype)
    p = load_params(start=1, repeat=3, src_stride=3, dst_gap=1)
    got = prog.run(case, src=src, out=out, p=p).out("out", dtype).reshape(8, f)
    frac = src.reshape(12, f)
    expect = out.reshape(8, f).copy()
    for i in range(3):
        expect[i * 2] = frac[1 + i * 3]
    assert got.tobytes() == expect.tobytes()


@pytest.mark.parametrize("to_b", [0, 1])
def test_loaddata_2d_transpose_transposes_each_16x16_fractal(prog, to_b):
    src = rand(np.float16, 4 * 256)
    out = np.zeros(4 * 256, np.float16)
    p = load_params(repeat=4, transpose=1, to_b=to_b)
    got = prog.run("load_f16", src=src, out=out, p=p).out("out", np.float16).reshape(4, 16, 16)
    expect = src.reshape(4, 16, 16).transpose(0, 2, 1)
    assert got.tobytes() == expect.tobytes()


def test_loaddata_with_transpose_int8_turns_two_16x32_fractals_into_their_transpose(prog):
    # an int8 B[k=64, n=32] in L1 as NZ (C0 = 32 along n): each 32 x 32 square of two stacked fractals,
    # transposed, must give the L0B ZN fractals of B (16 n-rows of 32 k-values)
    k, n = 64, 32
    b = rand(np.int8, (k, n))
    l1 = to_nz(b, k)  # one fractal column (n = 32), 4 fractals of 16 k-rows
    out = np.zeros(k * n, np.int8)
    p = load_params(repeat=2, src_stride=1, dst_gap=1, with_transpose=1, frac_gap=0, to_b=1)
    got = prog.run("load_i8", src=l1, out=out, p=p).out("out", np.int8)
    assert got.tobytes() == to_zn(b).tobytes()


def test_loaddata_with_transpose_half_is_one_fractal_per_repeat(prog):
    src = rand(np.float16, 3 * 256)
    out = np.zeros(6 * 256, np.float16)
    p = load_params(start=0, repeat=3, src_stride=1, dst_gap=1, with_transpose=1)
    got = prog.run("load_f16", src=src, out=out, p=p).out("out", np.float16).reshape(6, 16, 16)
    expect = np.zeros((6, 16, 16), np.float16)
    expect[0::2] = src.reshape(3, 16, 16).transpose(0, 2, 1)
    assert got.tobytes() == expect.tobytes()


def test_loaddata_with_transpose_float_turns_two_side_by_side_16x8_fractals(prog):
    # float: fractals 2s and 2s+1 side by side form a 16 x 16 square; its transpose is split back into the
    # left 8 columns (the repeat's first destination fractal) and the right 8 (1 + dstFracGap fractals later)
    src = rand(np.float32, 4 * 128)
    out = np.zeros(8 * 128, np.float32)
    p = load_params(repeat=2, src_stride=1, dst_gap=3, with_transpose=1, frac_gap=1)
    got = prog.run("load_f32", src=src, out=out, p=p).out("out", np.float32).reshape(8, 16, 8)
    expect = np.zeros((8, 16, 8), np.float32)
    fr = src.reshape(4, 16, 8)
    for i in range(2):
        square = np.concatenate([fr[2 * i], fr[2 * i + 1]], axis=1)  # 16 x 16
        t = square.T
        expect[i * 4], expect[i * 4 + 2] = t[:, :8], t[:, 8:]
    assert got.tobytes() == expect.tobytes()


# ---- Mmad -----------------------------------------------------------------------------------------------------------

MMAD = {np.float16: ("mmad_f16", np.float32), "bf16": ("mmad_bf16", np.float32), np.int8: ("mmad_i8", np.int32),
        np.float32: ("mmad_f32", np.float32)}


def bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits (round to nearest even) as uint16, and the float32 values they hold."""
    u = x.astype(np.float32).view(np.uint32)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return r, (r.astype(np.uint32) << 16).view(np.float32)


def run_mmad(prog, kind, m, n, k, *, init=1, source=0, is_bias=0, bias_mode=0, c_init=None, bias=None):
    case, acc = MMAD[kind]
    if kind == "bf16":
        a_bits, a = bf16(RNG.uniform(-2, 2, (m, k)))
        b_bits, b = bf16(RNG.uniform(-2, 2, (k, n)))
        la, lb = to_zz(a_bits), to_zn(b_bits)
    else:
        a, b = rand(kind, (m, k)), rand(kind, (k, n))
        la, lb = to_zz(a), to_zn(b)
    mp, np_ = up(m, 16), up(n, 16)
    c0_ = np.zeros((mp, np_), acc) if c_init is None else c_init
    bias_v = np.zeros(np_, acc) if bias is None else bias
    p = np.array([m, n, k, init, source, is_bias, bias_mode, 0], np.int64)
    res = prog.run(case, a=la, b=lb, c=to_l0c(c0_, mp), bias=bias_v, p=p)
    got = from_l0c(res.out("c", acc), m, n)[:m, :n]
    ref = a.astype(np.float64) @ b.astype(np.float64)
    return got, ref, res


@pytest.mark.parametrize("kind,m,n,k", [
    (np.float16, 16, 16, 16), (np.float16, 30, 40, 70), (np.float16, 2, 33, 5),
    ("bf16", 45, 20, 37), (np.int8, 17, 48, 100), (np.float32, 19, 21, 13),
    # the sizes of a Matmul base block: whole L0A (128 x 256 half), and an int8 block with unaligned m / n / k
    (np.float16, 128, 128, 256), (np.int8, 100, 200, 160),
])
def test_mmad_matches_numpy_for_each_type_and_unaligned_shapes(prog, kind, m, n, k):
    got, ref, _ = run_mmad(prog, kind, m, n, k)
    if kind is np.int8:
        np.testing.assert_array_equal(got, ref.astype(np.int64))
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-4 * k)


def test_mmad_sums_each_element_in_k_order_in_float32(prog):
    # the documented accumulation: fp32 sums of exact half products. The emulator adds them in K order whatever
    # its blocking, so a float32 running sum in numpy (one rounding per addition, from 0) gives the same bits
    m, n, k = 64, 48, 200
    a, b = rand(np.float16, (m, k)), rand(np.float16, (k, n))
    p = np.array([m, n, k, 1, 0, 0, 0, 0], np.int64)
    res = prog.run("mmad_f16", a=to_zz(a), b=to_zn(b), c=np.zeros(m * n, np.float32), bias=np.zeros(n, np.float32), p=p)
    got = from_l0c(res.out("c", np.float32), m, n)
    acc = np.zeros((m, n), np.float32)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    for kk in range(k):
        acc = acc + np.outer(af[:, kk], bf[kk])  # float32 + float32: rounded once, as the emulator's addition
    np.testing.assert_array_equal(got, acc)


def sparse_b(rng, k, n):
    """A 4:2 sparse B [k, n] with its densified form [k / 2, n] and one 2-bit index per dense value: per group of
    four along K the first value's position (0..2) and the second's position minus one; pairs whose second index
    does not point past the first select the first's element for both values (the selection table's X/X rows)."""
    pairs = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2), (1, 0), (2, 0)]
    full, dense, ind = np.zeros((k, n), np.int64), np.zeros((k // 2, n), np.int8), np.zeros((k // 2, n), np.int64)
    for j in range(n):
        for g in range(k // 4):
            p1, i2 = pairs[rng.integers(len(pairs))]
            v = rng.integers(-9, 10, 2)
            full[4 * g + p1, j] += v[0]
            full[4 * g + max(i2 + 1, p1), j] += v[1]
            dense[2 * g: 2 * g + 2, j] = v
            ind[2 * g, j], ind[2 * g + 1, j] = p1, i2
    return full, dense, ind


def index_fractals(ind: np.ndarray) -> np.ndarray:
    """One 128-byte fractal per 32 x 16 B fractal (K blocks outer, N blocks inner, as in L0B): 16 rows (n) of 8 bytes,
    four 2-bit indices per byte from the low bits."""
    kd, n = ind.shape
    out = []
    for k1 in range(kd // 32):
        for n1 in range(n // 16):
            blk = ind[k1 * 32:(k1 + 1) * 32, n1 * 16:(n1 + 1) * 16].T  # [16 rows n, 32 indices]
            q = blk.reshape(16, 8, 4)
            out.append((q[..., 0] | q[..., 1] << 2 | q[..., 2] << 4 | q[..., 3] << 6).astype(np.uint8).ravel())
    return np.concatenate(out)


@pytest.mark.parametrize("m,n,k", [(32, 32, 64), (48, 64, 128)])
def test_mmad_with_sparse_expands_b_by_its_index(prog, m, n, k):
    # LoadDataWithSparse (B fractals + index fractals) then MmadWithSparse: C = A x B with B's dense values placed at the
    # K positions their indices give (the documented 4:2 selection), int8 -> int32 exact
    rng = np.random.default_rng(9)
    a = rng.integers(-9, 10, (m, k)).astype(np.int8)
    full, dense, ind = sparse_b(rng, k, n)
    res = prog.run("mmad_sparse", a=to_zz(a), b=to_zn(dense), idx=index_fractals(ind), p=np.array([m, n, k], np.int64))
    got = from_l0c(res.out("c", np.int32), m, n)[:m, :n]
    np.testing.assert_array_equal(got, a.astype(np.int64) @ full)


def test_mmad_accumulates_onto_l0c_when_init_is_off(prog):
    m, n, k = 20, 24, 40
    prior = RNG.uniform(-5, 5, (32, 32)).astype(np.float32)
    got, ref, _ = run_mmad(prog, np.float16, m, n, k, init=0, source=0, c_init=prior)
    np.testing.assert_allclose(got, ref + prior[:m, :n], rtol=1e-5, atol=1e-3)


def test_mmad_with_init_ignores_what_l0c_held(prog):
    prior = np.full((32, 32), 1e6, np.float32)
    got, ref, _ = run_mmad(prog, np.float16, 20, 24, 40, init=1, c_init=prior)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("bias_mode,source", [(1, 0), (2, 1)])
def test_mmad_bias_from_tensor_or_bias_table_is_added_per_column(prog, bias_mode, source):
    m, n, k = 18, 40, 24
    bias = RNG.uniform(-3, 3, up(n, 16)).astype(np.float32)
    got, ref, _ = run_mmad(prog, np.float16, m, n, k, init=0, source=source, bias_mode=bias_mode, bias=bias)
    np.testing.assert_allclose(got, ref + bias[:n], rtol=1e-5, atol=1e-3)


def test_mmad_int8_accumulate_is_exact_int32(prog):
    prior = RNG.integers(-10**6, 10**6, (32, 64)).astype(np.int32)
    got, ref, _ = run_mmad(prog, np.int8, 30, 64, 96, init=0, c_init=prior)
    np.testing.assert_array_equal(got, ref.astype(np.int64) + prior[:30, :64])


# ---- Fixpipe ---------------------------------------------------------------------------------------------------------

FIX_P = ["m", "n", "src_stride", "dst_stride", "quant", "deq", "relu", "nd", "src_nd", "dst_nd", "nz", "vq", "split"]
QUANT = dict(NoQuant=0, F322F16=1, F322BF16=2, DEQF16=3, VDEQF16=4, QF322B8_PRE=5, VQF322B8_PRE=6, REQ8=7, VREQ8=8)


def run_fix(prog, case, src_dt, dst_dt, c, out_len, q=None, **kw):
    vals = dict(m=0, n=0, src_stride=0, dst_stride=0, quant=0, deq=0, relu=0, nd=1, src_nd=0, dst_nd=0, nz=0, vq=0, split=0)
    vals.update(kw)
    p = np.array([vals[k] for k in FIX_P], np.int64)
    q = np.zeros(max(1, vals["n"]), np.uint64) if q is None else q
    res = prog.run(case, c=c, out=np.full(out_len, 7, dst_dt), q=q, p=p)
    return res.out("out", dst_dt)


def quant_word(scale: float, offset: int = 0, signed: bool = True) -> int:
    bits = int(np.array([scale], np.float32).view(np.uint32)[0])
    return bits | ((offset & 0x1FF) << 37) | (int(signed) << 46)


def test_fixpipe_nz_to_nd_float_unaligned_with_row_pitch(prog):
    m, n, rows, pitch = 30, 40, 32, 48
    c = RNG.uniform(-4, 4, (rows, 48)).astype(np.float32)
    got = run_fix(prog, "fix_f32_f32", np.float32, np.float32, to_l0c(c, rows), m * pitch, m=m, n=n, src_stride=rows,
                  dst_stride=pitch).reshape(m, pitch)
    np.testing.assert_array_equal(got[:, :n], c[:m, :n])
    assert (got[:, n:] == 7).all()  # the row padding is not written


def test_fixpipe_relu_and_f322f16_round_to_nearest_even(prog):
    m, n = 16, 32
    c = RNG.uniform(-4, 4, (m, n)).astype(np.float32)
    got = run_fix(prog, "fix_f16_f32", np.float32, np.float16, to_l0c(c, 16), m * n, m=m, n=n, src_stride=16, dst_stride=n,
                  quant=QUANT["F322F16"], relu=1).reshape(m, n)
    np.testing.assert_array_equal(got, np.maximum(c, 0).astype(np.float16))


def test_fixpipe_f322bf16(prog):
    m, n = 16, 16
    c = RNG.uniform(-4, 4, (m, n)).astype(np.float32)
    got = run_fix(prog, "fix_bf16_f32", np.float32, np.uint16, to_l0c(c, 16), m * n, m=m, n=n, src_stride=16, dst_stride=n,
                  quant=QUANT["F322BF16"])
    np.testing.assert_array_equal(got.reshape(m, n), bf16(c)[0])


def test_fixpipe_scalar_quant_to_int8_with_offset_and_saturation(prog):
    m, n = 16, 16
    c = RNG.uniform(-300, 300, (m, n)).astype(np.float32)
    scale, offset = 0.5, -3  # 0.5 is exact in the 19-bit scale format
    got = run_fix(prog, "fix_i8_f32", np.float32, np.int8, to_l0c(c, 16), m * n, m=m, n=n, src_stride=16, dst_stride=n,
                  quant=QUANT["QF322B8_PRE"], deq=quant_word(scale, offset)).reshape(m, n)
    expect = np.clip(np.rint(c.astype(np.float64) * scale) + offset, -128, 127).astype(np.int8)
    np.testing.assert_array_equal(got, expect)


def test_fixpipe_deqf16_and_req8_from_int32(prog):
    m, n = 16, 32
    c = RNG.integers(-2000, 2000, (m, n)).astype(np.int32)
    got = run_fix(prog, "fix_f16_i32", np.int32, np.float16, to_l0c(c, 16), m * n, m=m, n=n, src_stride=16, dst_stride=n,
                  quant=QUANT["DEQF16"], deq=quant_word(0.25)).reshape(m, n)
    np.testing.assert_array_equal(got, (c * 0.25).astype(np.float16))
    got8 = run_fix(prog, "fix_u8_i32", np.int32, np.uint8, to_l0c(c, 16), m * n, m=m, n=n, src_stride=16, dst_stride=n,
                   quant=QUANT["REQ8"], deq=quant_word(0.125, 0, signed=False)).reshape(m, n)
    np.testing.assert_array_equal(got8, np.clip(np.rint(c * 0.125), 0, 255).astype(np.uint8))


def test_fixpipe_vector_quant_takes_one_scale_per_column_from_l1(prog):
    m, n = 16, 32
    c = RNG.integers(-500, 500, (m, n)).astype(np.int32)
    scales = np.array([0.5 if j % 2 else 0.25 for j in range(n)])
    q = np.array([quant_word(s) for s in scales], np.uint64)
    got = run_fix(prog, "fix_i8_i32", np.int32, np.int8, to_l0c(c, 16), m * n, q=q, m=m, n=n, src_stride=16, dst_stride=n,
                  quant=QUANT["VREQ8"], vq=1).reshape(m, n)
    np.testing.assert_array_equal(got, np.clip(np.rint(c * scales[None, :]), -128, 127).astype(np.int8))


def test_fixpipe_nz_output_keeps_16_column_blocks_dststride_in_32_byte_units(prog):
    m, n, rows = 20, 48, 32
    c = RNG.uniform(-4, 4, (rows, n)).astype(np.float32)
    dst_stride = 24 * 16 * 4 // 32  # blocks of 24 rows (>= m) apart
    got = run_fix(prog, "fix_f32_f32", np.float32, np.float32, to_l0c(c, rows), 3 * 24 * 16, m=m, n=n, src_stride=rows,
                  dst_stride=dst_stride, nz=1).reshape(3, 24, 16)
    expect = c[:m, :n].reshape(m, 3, 16).transpose(1, 0, 2)
    np.testing.assert_array_equal(got[:, :m], expect)
    assert (got[:, m:] == 7).all()


def test_fixpipe_several_nd_matrices(prog):
    # two 16 x 16 results, 1 fractal apart in L0C, written 300 elements apart in GM
    c = RNG.uniform(-1, 1, (2, 16, 16)).astype(np.float32)
    l0c = np.concatenate([to_l0c(c[0], 16), to_l0c(c[1], 16)])
    got = run_fix(prog, "fix_f32_f32", np.float32, np.float32, l0c, 600, m=16, n=16, src_stride=16, dst_stride=16, nd=2,
                  src_nd=1, dst_nd=300)
    np.testing.assert_array_equal(got[:256].reshape(16, 16), c[0])
    np.testing.assert_array_equal(got[300:556].reshape(16, 16), c[1])
    assert (got[256:300] == 7).all()


# ---- LoadData 3Dv2 (im2col) -------------------------------------------------------------------------------------

def test_im2col_3x3_stride1_pad1_matches_numpy(prog):
    c, h, w, kh, kw = 16, 5, 6, 3, 3
    fm = rand(np.float16, (c, h, w))
    l1 = fm.reshape(1, 16, h, w).transpose(0, 2, 3, 1).ravel()  # C1 H W C0
    pads = (1, 1, 1, 1)
    ho, wo = h, w
    m_ext, k_ext = up(ho * wo, 16), kh * kw * 16
    p = np.array([h, w, c, k_ext, m_ext, 0, 0, 1, 1, kw, kh, 1, 1, *pads, 0], np.int64)
    got = prog.run("im2col_f16", fm=l1, out=np.zeros(m_ext * k_ext, np.float16), p=p).out("out", np.float16)
    padded = np.zeros((c, h + 2, w + 2), np.float16)
    padded[:, 1:-1, 1:-1] = fm
    x = np.zeros((m_ext, k_ext), np.float16)
    for oh in range(ho):
        for ow in range(wo):
            for fh in range(kh):
                for fw in range(kw):
                    x[oh * wo + ow, (fh * kw + fw) * 16:(fh * kw + fw + 1) * 16] = padded[:, oh + fh, ow + fw]
    assert got.tobytes() == to_zz(x).tobytes()


@pytest.mark.parametrize("kind,k,n", [(np.float16, 300, 40), (np.int8, 100, 16)])
def test_mmad_with_m_1_is_a_gemv_reading_a_contiguous_vector(prog, kind, k, n):
    # dav-2201 switches to GEMV for m = 1: A in L0A is k contiguous elements (whole 512-byte fractals)
    case, acc = MMAD[kind]
    a, b = rand(kind, (1, k)), rand(kind, (k, n))
    per = 512 // np.dtype(kind).itemsize
    la = np.zeros(up(k, per), kind)
    la[:k] = a[0]
    p = np.array([1, n, k, 1, 0, 0, 0, 0], np.int64)
    res = prog.run(case, a=la, b=to_zn(b), c=np.zeros(16 * up(n, 16), acc), bias=np.zeros(up(n, 16), acc), p=p)
    got = from_l0c(res.out("c", acc), 1, n)[0, :n]
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got, ref[0], rtol=1e-5, atol=1e-3)


def test_fixpipe_channel_split_writes_float_nz_in_8_column_blocks(prog):
    m, n = 16, 32
    c = RNG.uniform(-4, 4, (m, n)).astype(np.float32)
    got = run_fix(prog, "fix_f32_f32", np.float32, np.float32, to_l0c(c, 16), 4 * 16 * 8, m=m, n=n, src_stride=16,
                  dst_stride=16 * 8 * 4 // 32, nz=1, split=1).reshape(4, 16, 8)
    np.testing.assert_array_equal(got, c.reshape(m, 4, 8).transpose(1, 0, 2))
