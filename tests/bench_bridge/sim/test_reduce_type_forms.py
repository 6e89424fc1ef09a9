"""The CANN 9.1 reduce names (ReduceRepeat / ReduceDataBlock / ReducePairElem with a ReduceType),
the sum register (GetReduceRepeatSumSpr, old name GetAccVal) and AscendC::Conditional / Std type
traits, checked against numpy references written from the documented rules:

* ReduceRepeat<SUM>: one pairwise-tree sum per repeat (every addition rounded to T), dst[r * dstRepStride];
  <MAX|MIN>: extreme + in-repeat index (first on ties) in the ReduceOrder layout.
* ReduceDataBlock<op>: one result per 32-byte block, 8 per repeat.
* ReducePairElem<SUM>: sums of adjacent pairs.
* GetReduceRepeatSumSpr<T>() returns what ReduceSum(dst, src, work, count) computed.
The Conditional / Std rules are static_asserts in the C++ program: a wrong rule fails its build.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("reduce_type_forms.cpp")

CASE = {np.float32: "forms_f32", np.float16: "forms_f16"}
SUM, MAX, MIN = 0, 1, 2
REPEAT, BLOCK, PAIR = 0, 1, 2


def per_repeat(dt):
    return 256 // np.dtype(dt).itemsize


def tree_sum(lanes, dt):
    """Pairwise tree inside a repeat, each addition rounded to dt (lanes: power-of-two length)."""
    v = np.asarray(lanes, dt)
    while v.size > 1:
        v = (v[0::2].astype(np.float64) + v[1::2].astype(np.float64)).astype(dt)
    return v[0]


def repeats_of(x, dt, rep, src_rep_blocks, mask_lanes):
    """The (masked) lanes of each repeat, masked-off lanes as None -> 0 for sums."""
    per = per_repeat(dt)
    epb = 32 // np.dtype(dt).itemsize
    out = []
    for r in range(rep):
        base = r * src_rep_blocks * epb
        out.append([(x[base + i] if i in mask_lanes else None) for i in range(per)])
    return out


def run(prog, x, form, op, nout, **kw):
    res = prog.run(CASE[x.dtype.type], x=x, form=form, op=op, nout=nout, **kw)
    assert not res.errors
    return res, res.out("y", x.dtype)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("mask", [None, 37])
def test_reduce_repeat_sum(prog, dt, mask):
    per = per_repeat(dt)
    mask = mask or per
    rep = 5
    x = np.random.default_rng(1).uniform(-4, 4, rep * per).astype(dt)
    _, y = run(prog, x, REPEAT, SUM, 16, mask=mask, rep=rep, dstrep=2)
    for r, lanes in enumerate(repeats_of(x, dt, rep, 8, set(range(mask)))):
        want = tree_sum([0 if v is None else v for v in lanes], dt)
        assert y[2 * r] == want, (r, y[2 * r], want)
        assert y[2 * r + 1] == 7  # dstRepStride 2: the slot between results is untouched


def test_reduce_repeat_sum_with_src_stride(prog):
    """srcRepStride 16 blocks: repeat r starts at element r * 128 (float), every other 256 bytes skipped."""
    dt = np.float32
    x = np.random.default_rng(2).standard_normal(6 * 64).astype(dt)
    _, y = run(prog, x, REPEAT, SUM, 8, mask=64, rep=3, srcrep=16)
    for r in range(3):
        assert y[r] == tree_sum(x[r * 128 : r * 128 + 64], dt)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("op,pick", [(MAX, np.argmax), (MIN, np.argmin)])
def test_reduce_repeat_extreme_value_index(prog, dt, op, pick):
    per = per_repeat(dt)
    rep = 4
    x = np.random.default_rng(op).permutation(rep * per).astype(dt)  # distinct values
    _, y = run(prog, x, REPEAT, op, 2 * rep, mask=per, rep=rep)  # default order: value, index
    idx_t = np.uint16 if dt == np.float16 else np.uint32
    for r in range(rep):
        seg = x[r * per : (r + 1) * per]
        assert y[2 * r] == seg[pick(seg)]
        assert y[2 * r + 1 : 2 * r + 2].view(idx_t)[0] == pick(seg)


def test_reduce_repeat_only_value_and_bit_mask(prog):
    """ORDER_ONLY_VALUE packs one value per repeat; a bit mask of the even lanes only sees those lanes."""
    dt = np.float16
    x = np.random.default_rng(5).uniform(-100, 100, 3 * 128).astype(dt)
    even = int("01" * 32, 2)  # lanes 0, 2, 4, ... of each 64-lane word
    _, y = run(prog, x, REPEAT, MAX, 3, mask=0, mlo=even, mhi=even, rep=3, order=2)
    for r in range(3):
        assert y[r] == x[r * 128 : (r + 1) * 128 : 2].max()


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("op", [SUM, MAX, MIN])
def test_reduce_data_block(prog, dt, op):
    per = per_repeat(dt)
    epb = 32 // np.dtype(dt).itemsize
    rep = 2
    x = np.random.default_rng(10 + op).uniform(-8, 8, rep * per).astype(dt)
    _, y = run(prog, x, BLOCK, op, 8 * rep, mask=per, rep=rep)
    blocks = x.reshape(-1, epb)
    want = [tree_sum(b, dt) if op == SUM else (b.max() if op == MAX else b.min()) for b in blocks]
    np.testing.assert_array_equal(y, np.array(want, dt))


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_reduce_pair_elem(prog, dt):
    per = per_repeat(dt)
    x = np.random.default_rng(7).uniform(-8, 8, 2 * per).astype(dt)
    _, y = run(prog, x, PAIR, SUM, per, mask=per, rep=2)
    want = (x[0::2].astype(np.float64) + x[1::2].astype(np.float64)).astype(dt)
    np.testing.assert_array_equal(y, want)


def reduce_sum_count(x, dt):
    """ReduceSum count form: a tree per repeat, the repeat results added in order, rounded to dt."""
    per = per_repeat(dt)
    acc = None
    for b in range(0, x.size, per):
        seg = np.zeros(per, dt)
        seg[: min(per, x.size - b)] = x[b : b + per]
        s = tree_sum(seg, dt)
        acc = s if acc is None else dt(np.float64(acc) + np.float64(s))
    return acc


@pytest.mark.parametrize("dt,n", [(np.float32, 1000), (np.float16, 300)])
@pytest.mark.parametrize("old", [0, 1])
def test_sum_register_holds_reduce_sum_result(prog, dt, n, old):
    x = np.random.default_rng(n).uniform(-1, 1, n).astype(dt)
    res = prog.run("sum_spr_f32" if dt == np.float32 else "sum_spr_f16", x=x, count=n, old=old)
    y = res.out("y", dt)
    assert y[1] == reduce_sum_count(x, dt)  # ReduceSum's own dst
    assert y[0] == y[1]  # the register returns the same value
    assert not res.warnings


def test_sum_register_unset_warns(prog):
    x = np.ones(64, np.float32)
    res = prog.run("sum_spr_f32", x=x, count=64, skip=1)
    assert any(w.code == "reduce-spr-unset" for w in res.warnings)
