"""LoadData with LoadData3DParamsV2 into A2 with enTranspose and into B2 (dav-2201), against numpy.

The model first builds the im2col matrix X (rows are output positions, columns are (channel block,
filter tap, channel) triples) by plain indexing of the padded feature map. It then lays the window out
with reshape/transpose: A2 without transpose is ZZ of X. A2 with enTranspose is ZZ of X transposed, so
every fractal is transposed and also moves to the mirrored fractal position. B2 is the right-matrix ZN
layout with X's rows as K, so every fractal is transposed and keeps its position."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cube_load3d.cpp")
SOURCE = CPP_DIR / "cube_load3d.cpp"
RNG = np.random.default_rng(5)
CASE = {np.float16: "load3d_f16", np.float32: "load3d_f32"}


def c0(dtype) -> int:
    return 32 // np.dtype(dtype).itemsize


def up(x: int, a: int) -> int:
    return -(-x // a) * a


def zz(a: np.ndarray) -> np.ndarray:
    """[rows, cols] in 16 x C0 fractals, fractals row-major, each row-major."""
    k0 = c0(a.dtype)
    r, c = a.shape
    pad = np.zeros((up(r, 16), up(c, k0)), a.dtype)
    pad[:r, :c] = a
    return pad.reshape(up(r, 16) // 16, 16, -1, k0).transpose(0, 2, 1, 3).ravel()


def zn(b: np.ndarray) -> np.ndarray:
    """Right matrix [k, n]: C0 x 16 fractals, k blocks outer, each stored as 16 n-rows of C0 k-values."""
    k0 = c0(b.dtype)
    k, n = b.shape
    pad = np.zeros((up(k, k0), up(n, 16)), b.dtype)
    pad[:k, :n] = b
    return pad.reshape(-1, k0, up(n, 16) // 16, 16).transpose(0, 2, 3, 1).ravel()


def im2col(fm: np.ndarray, kh: int, kw: int, pads) -> np.ndarray:
    c, h, w = fm.shape
    k0 = c0(fm.dtype)
    c1 = up(c, k0) // k0
    pl, pr, pt, pb = pads
    padded = np.zeros((c1 * k0, h + pt + pb, w + pl + pr), fm.dtype)
    padded[:c, pt:pt + h, pl:pl + w] = fm
    ho, wo = h + pt + pb - kh + 1, w + pl + pr - kw + 1
    x = np.zeros((ho * wo, c1 * kh * kw * k0), fm.dtype)
    for oh in range(ho):
        for ow in range(wo):
            col = 0
            for b in range(c1):
                for fh in range(kh):
                    for fw in range(kw):
                        x[oh * wo + ow, col:col + k0] = padded[b * k0:(b + 1) * k0, oh + fh, ow + fw]
                        col += k0
    return x


def l1_layout(fm: np.ndarray) -> np.ndarray:
    """C, H, W -> C1 H W C0 (channels padded to C0)."""
    c, h, w = fm.shape
    k0 = c0(fm.dtype)
    pad = np.zeros((up(c, k0), h, w), fm.dtype)
    pad[:c] = fm
    return pad.reshape(-1, k0, h, w).transpose(0, 2, 3, 1).ravel()


def run(prog, dtype, fm, kh, kw, pads, m_ext, k_ext, to_b, transpose, m_start=0, k_start=0):
    c, h, w = fm.shape
    n = m_ext * k_ext
    p = np.array([h, w, c, k_ext, m_ext, k_start, m_start, kw, kh, *pads, int(to_b), int(transpose), 0], np.int64)
    res = prog.run(CASE[dtype], fm=l1_layout(fm), out=np.zeros(up(n, 256), dtype), p=p)
    assert not res.errors, res.run.stderr
    return res.out("out", dtype)[:n]


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_a2_with_entranspose_holds_the_transposed_window_in_zz(prog, dtype):
    fm = RNG.uniform(-2, 2, (c0(dtype), 4, 8)).astype(dtype)  # one channel block, 2x2 filter, pad 1 right/bottom
    x = im2col(fm, 2, 2, (0, 1, 0, 1))                         # 32 positions x 4 * C0 columns
    m_ext, k_ext = 32, x.shape[1]
    got = run(prog, dtype, fm, 2, 2, (0, 1, 0, 1), m_ext, k_ext, to_b=False, transpose=True)
    want = zz(np.ascontiguousarray(x[:m_ext, :k_ext].T))
    assert got.tobytes() == want[:got.size].tobytes()


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_b2_is_the_zn_layout_with_window_rows_as_k(prog, dtype):
    fm = RNG.uniform(-2, 2, (2 * c0(dtype), 3, 8)).astype(dtype)  # two channel blocks, 1x1 filter
    x = im2col(fm, 1, 1, (0, 0, 0, 0))                             # 24 positions x 2 * C0
    m_ext, k_ext = 16, x.shape[1]
    got = run(prog, dtype, fm, 1, 1, (0, 0, 0, 0), m_ext, k_ext, to_b=True, transpose=True, m_start=8)
    want = zn(x[8:8 + m_ext, :k_ext])
    assert got.tobytes() == want[:got.size].tobytes()


def test_a2_without_transpose_is_unchanged(prog):
    fm = RNG.uniform(-2, 2, (16, 4, 4)).astype(np.float16)
    x = im2col(fm, 3, 3, (1, 1, 1, 1))
    got = run(prog, np.float16, fm, 3, 3, (1, 1, 1, 1), 16, x.shape[1], to_b=False, transpose=False)
    assert got.tobytes() == zz(x[:16]).tobytes()


def test_int8_into_b2_is_rejected_on_the_users_line(prog):
    res = prog.run("int8_into_b2", expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    line = next(i for i, s in enumerate(SOURCE.read_text().splitlines(), 1) if s.rstrip().endswith("@int8-b2"))
    assert err.code == "load3d-param" and err.line == line, (err, res.run.stderr)
    assert "1-byte" in err.message


# ---- registers: SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary, SetLoadDataRepeat, V2Pro ---------------

def regs_params(form, reg_hw, reg_pads, reg_pad_value, boundary, repeat, hw, c, k_ext, m_ext, kw, kh, stride=(1, 1),
                param_pad=0, src_addr=0, start=(0, 0)):
    return np.array([form, *reg_hw, *reg_pads, reg_pad_value, boundary, repeat, *hw, c, k_ext, m_ext, start[0], start[1],
                     kw, kh, stride[0], stride[1], param_pad, src_addr, 0], np.int64)


def run_regs(prog, fm, p, n):
    res = prog.run("regs", fm=l1_layout(fm), out=np.full(up(n, 256), 9, np.float16), p=p)
    assert not res.errors, res.run.stderr
    return res.out("out", np.float16)[:n]


def padded_im2col(fm, kh, kw, pads, pad_value, stride=(1, 1)):
    """im2col with a pad value and strides (stride = (w, h))."""
    c, h, w = fm.shape
    k0 = c0(fm.dtype)
    c1 = up(c, k0) // k0
    pl, pr, pt, pb = pads
    padded = np.full((c1 * k0, h + pt + pb, w + pl + pr), pad_value, fm.dtype)
    padded[:, pt:pt + h, pl:pl + w] = 0
    padded[:c, pt:pt + h, pl:pl + w] = fm
    sw, sh = stride
    ho, wo = (h + pt + pb - kh) // sh + 1, (w + pl + pr - kw) // sw + 1
    x = np.zeros((ho * wo, c1 * kh * kw * k0), fm.dtype)
    for oh in range(ho):
        for ow in range(wo):
            col = 0
            for b in range(c1):
                for fh in range(kh):
                    for fw in range(kw):
                        x[oh * wo + ow, col:col + k0] = padded[b * k0:(b + 1) * k0, oh * sh + fh, ow * sw + fw]
                        col += k0
    return x


def test_load_with_config_false_takes_feature_map_and_pad_value_from_the_registers(prog):
    fm = RNG.uniform(-2, 2, (16, 4, 6)).astype(np.float16)
    pads = (1, 1, 1, 0)
    x = padded_im2col(fm, 3, 3, pads, 5.0)
    m_ext, k_ext = 16, x.shape[1]
    # the parameters say l1H = l1W = 99, no padding and pad value 0: all ignored with {false, false}
    p = regs_params(1, (4, 6), pads, 5, 0, 1, (99, 99), 16, k_ext, m_ext, 3, 3, param_pad=0)
    got = run_regs(prog, fm, p, m_ext * k_ext)
    assert got.tobytes() == zz(x[:m_ext]).tobytes()


def test_load_with_default_config_uses_its_own_parameters(prog):
    fm = RNG.uniform(-2, 2, (16, 4, 6)).astype(np.float16)
    x = im2col(fm, 3, 3, (0, 0, 0, 0))
    m_ext, k_ext = 8 * 2, x.shape[1]  # 2 x 4 output positions -> 8 rows, padded to 16 with the parameter pad value
    p = regs_params(0, (1, 1), (3, 3, 3, 3), 5, 0, 1, (4, 6), 16, k_ext, m_ext, 3, 3, param_pad=2)
    got = run_regs(prog, fm, p, m_ext * k_ext)
    want = np.full((m_ext, k_ext), 2.0, np.float16)  # rows past the last output position read the pad value
    want[:x.shape[0]] = x
    assert got.tobytes() == zz(want).tobytes()


def test_v2pro_unpacks_ext_and_filter_config(prog):
    fm = RNG.uniform(-2, 2, (16, 6, 8)).astype(np.float16)
    pads = (1, 0, 0, 1)
    x = padded_im2col(fm, 2, 3, pads, -1.0, stride=(2, 1))  # kw = 3, kh = 2, strideW = 2, strideH = 1
    m_ext, k_ext, m_start, k_start = 16, 64, 4, 16
    p = regs_params(2, (6, 8), pads, -1, 0, 1, (0, 0), 16, k_ext, m_ext, 3, 2, stride=(2, 1), start=(k_start, m_start))
    got = run_regs(prog, fm, p, m_ext * k_ext)
    assert got.tobytes() == zz(x[m_start:m_start + m_ext, k_start:k_start + k_ext]).tobytes()


def test_boundary_wraps_feature_map_reads_to_the_start_of_l1(prog):
    # two channel blocks of 4 x 8 x 16 halves = 1024 bytes each; with a 1024-byte boundary the second block's
    # reads wrap to the first block
    fm = RNG.uniform(-2, 2, (32, 4, 8)).astype(np.float16)
    wrapped = np.concatenate([fm[:16], fm[:16]])
    x = im2col(wrapped, 1, 1, (0, 0, 0, 0))
    p = regs_params(0, (1, 1), (0, 0, 0, 0), 0, 1024, 1, (4, 8), 32, 32, 32, 1, 1)
    got = run_regs(prog, fm, p, 32 * 32)
    assert got.tobytes() == zz(x).tobytes()


def test_repeat_time_zero_is_a_no_op(prog):
    fm = RNG.uniform(-2, 2, (16, 4, 4)).astype(np.float16)
    p = regs_params(0, (1, 1), (0, 0, 0, 0), 0, 0, 0, (4, 4), 16, 16, 16, 1, 1)
    got = run_regs(prog, fm, p, 256)
    assert (got == 9).all()


@pytest.mark.parametrize("boundary,repeat,src_addr,code,text", [
    (1024, 1, 2048, "load3d-boundary", "outside the SetLoadDataBoundary(1024)"),
    (0, 2, 0, "cube-not-emulated", "repeatTime 2"),
])
def test_register_rules_fire_on_the_users_line(prog, boundary, repeat, src_addr, code, text):
    fm = RNG.uniform(-2, 2, (16, 4, 4)).astype(np.float16)
    p = regs_params(2, (4, 4), (0, 0, 0, 0), 0, boundary, repeat, (0, 0), 16, 16, 16, 1, 1, src_addr=src_addr)
    res = prog.run("regs", fm=l1_layout(fm), out=np.zeros(256, np.float16), p=p, expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    line = next(i for i, s in enumerate(SOURCE.read_text().splitlines(), 1) if s.rstrip().endswith("@pro"))
    assert err.code == code and err.line == line, (err, res.run.stderr)
    assert text in err.message, err.message

