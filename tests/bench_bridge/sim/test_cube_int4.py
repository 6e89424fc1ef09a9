"""int4b_t (S4) on the emulator, against numpy packing computed here. Two elements share a byte, the first
in the low 4 bits; the official docs' example packs 6 then 7 into 0b0111_0110 = 118. Fractals are 16 x 64
elements (512 bytes). The tests cover tensor size rules (GetSize counts elements, GetLength bytes,
operator[] moves offset / 2 bytes), Mmad int4 x int4 -> int32 against numpy matmul, and
LoadDataWithTranspose of 64 x 64 squares against numpy transposes."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cube_int4.cpp")
SOURCE = CPP_DIR / "cube_int4.cpp"
RNG = np.random.default_rng(3)


def up(x: int, a: int) -> int:
    return -(-x // a) * a


def pack(v: np.ndarray) -> np.ndarray:
    """int values in [-8, 7], even count -> bytes, element 2i in the low nibble of byte i."""
    u = (v.astype(np.int16) & 0xF).astype(np.uint8).ravel()
    return (u[0::2] | (u[1::2] << 4)).astype(np.uint8).view(np.int8)


def unpack(b: np.ndarray) -> np.ndarray:
    u = b.view(np.uint8)
    out = np.empty(u.size * 2, np.int16)
    out[0::2], out[1::2] = u & 0xF, u >> 4
    return np.where(out >= 8, out - 16, out)


def test_docs_example_packs_6_and_7_into_118():
    assert pack(np.array([6, 7])).view(np.uint8)[0] == 118  # the model itself, checked against the docs


def test_tensor_sizes_count_elements_of_4_bits(prog):
    res = prog.run("sizes")
    assert not res.errors, res.run.stderr
    out = res.out("out", np.int32)
    assert list(out[:6]) == [128, 64, 5, 64, 128, 50], out[:6]
    assert list(out[8:14]) == [6, 7, -8, -1, 3, -5]
    assert list(out[16:19]) == list(pack(np.array([6, 7, -8, -1, 3, -5])).view(np.uint8))


def test_odd_element_offset_is_reported(prog):
    res = prog.run("odd_offset", expect_ok=False)
    assert res.run.returncode == 3
    err = res.errors[0]
    line = next(i for i, s in enumerate(SOURCE.read_text().splitlines(), 1) if s.rstrip().endswith("@odd-offset"))
    assert err.code == "int4-odd-offset" and err.line == line, err


def zz(a: np.ndarray, c0: int = 64) -> np.ndarray:
    m, k = a.shape
    pad = np.zeros((up(m, 16), up(k, c0)), a.dtype)
    pad[:m, :k] = a
    return pad.reshape(up(m, 16) // 16, 16, -1, c0).transpose(0, 2, 1, 3).ravel()


def zn(b: np.ndarray, c0: int = 64) -> np.ndarray:
    k, n = b.shape
    pad = np.zeros((up(k, c0), up(n, 16)), b.dtype)
    pad[:k, :n] = b
    return pad.reshape(-1, c0, up(n, 16) // 16, 16).transpose(0, 2, 3, 1).ravel()


@pytest.mark.parametrize("m,n,k", [(16, 16, 64), (20, 40, 100), (33, 16, 130)])
def test_mmad_int4_matches_numpy_matmul(prog, m, n, k):
    a = RNG.integers(-8, 8, (m, k))
    b = RNG.integers(-8, 8, (k, n))
    pa, pb = pack(zz(a)), pack(zn(b))
    m16, n16 = up(m, 16), up(n, 16)
    res = prog.run("mmad", a=pa, b=pb, p=np.array([m, n, k, 0], np.int64), nc=m16 * n16)
    assert not res.errors, res.run.stderr
    raw = res.out("c", np.int32)
    c = raw.reshape(n16 // 16, m16 // 16, 16, 16).transpose(1, 2, 0, 3).reshape(m16, n16)
    np.testing.assert_array_equal(c[:m, :n], a @ b)


def test_load_data_with_transpose_turns_each_64x64_square(prog):
    # two squares (repeatTimes 2), each 4 consecutive 16 x 64 fractals; destination fractals 1 apart within
    # a square (dstFracGap = 1) and squares 9 fractals apart (dstGap = 8)
    sq = RNG.integers(-8, 8, (2, 64, 64))
    src = pack(sq.ravel())
    out0 = np.zeros(18 * 512, np.int8)
    res = prog.run("transpose", src=src, out=out0, p=np.array([2, 1, 8, 1], np.int64))
    assert not res.errors, res.run.stderr
    got = unpack(res.out("out", np.int8)).reshape(18, 16, 64)
    want = np.zeros((18, 16, 64), np.int16)
    for i in range(2):
        t = sq[i].T  # the square transposed, split into four 16 x 64 fractals
        for f in range(4):
            want[i * 9 + f * 2] = t[f * 16:(f + 1) * 16]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode,rounder", [(1, np.rint), (2, np.floor), (3, np.ceil), (5, np.trunc)])
def test_datacopy_and_cast_move_packed_int4(prog, mode, rounder):
    n = 256
    x = RNG.integers(-8, 8, n)
    narrow = RNG.uniform(-11, 11, n).astype(np.float16)  # some outside [-8, 7]: saturated
    h0 = np.concatenate([np.zeros(n, np.float16), narrow])
    res = prog.run("cast", x=pack(x), h=h0, p=np.array([mode, 0], np.int64))
    assert not res.errors, res.run.stderr
    h = res.out("h", np.float16)
    np.testing.assert_array_equal(h[:n], x.astype(np.float16))  # int4 -> half is exact
    want = np.clip(rounder(narrow.astype(np.float64)), -8, 7).astype(np.int16)
    np.testing.assert_array_equal(unpack(res.out("y", np.int8)), want)

