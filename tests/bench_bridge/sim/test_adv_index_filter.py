"""Arange and DropOut against numpy/torch and the documented operation order, with their size helpers."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_index_filter.cpp")


def up(v, a):
    return (v + a - 1) // a * a


def arange_documented(first, diff, count, dt):
    """Documented stages: one 32-byte block set element by element, then each block = previous block +
    T(diff * B), then each 256-byte repeat = previous repeat + T(diff * R); every addition rounded to dt."""
    size = np.dtype(dt).itemsize
    B, R = 32 // size, 256 // size
    integral = np.issubdtype(dt, np.integer)
    out = np.zeros(count, dt)

    def step(k):
        return dt(int(diff) * k) if integral else dt(np.float32(diff) * np.float32(k))

    for i in range(min(count, B)):
        out[i] = dt(first + diff * dt(i)) if integral else dt(np.float32(first) + np.float32(diff) * np.float32(i))
    for i in range(B, min(count, R)):
        out[i] = dt(int(out[i - B]) + int(step(B))) if integral else dt(np.float32(out[i - B]) + np.float32(step(B)))
    for i in range(R, count):
        out[i] = dt(int(out[i - R]) + int(step(R))) if integral else dt(np.float32(out[i - R]) + np.float32(step(R)))
    return out


@pytest.mark.parametrize("case,dt", [("arange_f32", np.float32), ("arange_f16", np.float16), ("arange_i32", np.int32),
                                     ("arange_i16", np.int16)])
@pytest.mark.parametrize("count,first,diff", [(5, 3, 2), (37, -10, 1), (300, 0.5, 0.25), (129, 1, 0.1)])
def test_arange(prog, case, dt, count, first, diff):
    if np.issubdtype(dt, np.integer):
        first, diff = int(first), max(int(diff), 1)
    res = prog.run(case, count=count, f=np.array([first, diff], np.float32))
    y = res.out("y", dt)
    np.testing.assert_array_equal(y[:count], arange_documented(dt(first), dt(diff), count, dt))
    ref = torch.arange(count, dtype=torch.float64).numpy() * float(dt(diff)) + float(dt(first))
    tol = 2e-3 if dt == np.float16 else 1e-5
    assert np.allclose(y[:count].astype(np.float64), ref, rtol=tol, atol=tol * 10)
    assert (y[count:] == dt(-7)).all()
    assert list(res.out("sizes", np.uint32)) == [0, 0, 0, 0]


def test_arange_bad_count(prog):
    res = prog.run("arange_f32", count=0, f=np.array([0, 1], np.float32), expect_ok=False)
    assert res.errors and res.errors[0].code == "arange-param"


def dropout_reference(x, mask, rows, cols, mcols, bit, p, dt):
    keep = np.zeros((rows, cols), bool)
    m = mask.reshape(rows, mcols)
    for c in range(cols):
        keep[:, c] = ((m[:, c // 8] >> (c % 8)) & 1).astype(bool) if bit else m[:, c] != 0
    scale = dt(np.float32(1) / np.float32(p))
    return np.where(keep, (x.reshape(rows, cols).astype(np.float32) * np.float32(scale)).astype(dt), dt(0))


@pytest.mark.parametrize("case,dt", [("dropout_f32", np.float32), ("dropout_f16", np.float16)])
@pytest.mark.parametrize("rows,cols,mcols,mode,bit", [(4, 64, 64, 0, 0), (3, 32, 64, 1, 0), (4, 256, 32, 0, 1),
                                                     (2, 128, 32, 4, 1), (2, 64, 8, 3, 1), (2, 64, 64, 2, 0)])
def test_dropout(prog, case, dt, rows, cols, mcols, mode, bit):
    rng = np.random.default_rng(rows * cols + mode)
    x = rng.uniform(-100, 100, rows * cols).astype(dt)
    mask = (rng.integers(0, 256, rows * mcols) if bit else rng.integers(0, 2, rows * mcols)).astype(np.uint8)
    p = np.float32(0.7)
    res = prog.run(case, x=x, mask=mask, p=np.array([p], np.float32), rows=rows, cols=cols, mcols=mcols, mode=mode, tmp=-1)
    y = res.out("y", dt).reshape(rows, cols)
    exp = dropout_reference(x, mask, rows, cols, mcols, bit, p, dt)
    np.testing.assert_array_equal(y, exp)
    # torch cross-check: the same as x * keep / p
    keep = exp != 0
    ref = torch.from_numpy(x.reshape(rows, cols).astype(np.float64)).numpy() * keep / float(p)
    assert np.allclose(y.astype(np.float64), ref, rtol=2e-3 if dt == np.float16 else 1e-6)
    assert list(res.out("sizes", np.uint32)) == [512, max(2 * rows * cols * 4, 512)]


def test_dropout_bit_order_is_lsb_first(prog):
    """The official example's golden: bit c of a mask byte (least significant first) keeps element c."""
    x = np.arange(1, 33, dtype=np.float32)
    mask = np.zeros(32, np.uint8)
    mask[0] = 169  # 0b10101001: elements 0, 3, 5, 7 kept
    res = prog.run("dropout_f32", x=x, mask=mask, p=np.array([0.5], np.float32), rows=1, cols=32, mcols=4, mode=3, tmp=-1)
    y = res.out("y", np.float32)
    assert list(np.nonzero(y)[0]) == [0, 3, 5, 7]
    assert y[3] == 8.0  # 4 / 0.5


def test_dropout_misuse(prog):
    x = np.ones(64, np.float32)
    m = np.ones(64, np.uint8)
    res = prog.run("dropout_f32", x=x, mask=m, p=np.array([1.5], np.float32), rows=1, cols=64, mcols=64, mode=0, tmp=-1,
                   expect_ok=False)
    assert res.errors and res.errors[0].code == "dropout-param"
    res = prog.run("dropout_f32", x=x, mask=m, p=np.array([0.5], np.float32), rows=1, cols=64, mcols=64, mode=0, tmp=128,
                   expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
    res = prog.run("dropout_f32", x=x, mask=m, p=np.array([0.5], np.float32), rows=1, cols=64, mcols=64, mode=0, tmp=-1,
                   inplace=1)
    assert not res.warnings and (res.out("y", np.float32) == 2).all()
