"""Emulator reductions checked against independent numpy models of the documented semantics:
WholeReduceSum/Max/Min (ReduceOrder layouts, ties), BlockReduce*, PairReduceSum, RepeatReduceSum,
ReduceSum/Max/Min (count and mask forms, workLocal size rule, index layout)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("reduce_gather.cpp")

OP = dict(whole_sum=0, whole_max=1, whole_min=2, block_sum=3, block_max=4, block_min=5, pair_sum=6,
          repeat_sum=7, sum_count=8, max_count=9, min_count=10, sum_mask=11, max_mask=12, min_mask=13,
          whole_sum_register=14, sum_count_work_is_src=15)
ORDER = dict(value_index=0, index_value=1, only_value=2, only_index=3)
CASE = {np.float32: "red_f32", np.float16: "red_f16"}
UINT = {np.float32: np.uint32, np.float16: np.uint16}


def pad32(a: np.ndarray) -> np.ndarray:
    per = 32 // a.itemsize
    n = -(-len(a) // per) * per
    return np.concatenate([a, np.zeros(n - len(a), a.dtype)])


def as_i64(v: int) -> int:
    return int(np.array([v & (2**64 - 1)], np.uint64).view(np.int64)[0])


def run(prog, dtype, op, src, nd=64, nw=32, *, mask=None, bits=None, repeat=1, dst_rep=1, src_blk=1, src_rep=8,
        order=0, count=0, doff=0, dst_fill=-7.0, expect_ok=True):
    src = pad32(np.asarray(src, dtype))
    dst = pad32(np.full(nd, dst_fill, dtype))
    work = pad32(np.full(nw, 99.0, dtype))
    if bits is not None:
        mm, lo, hi = 1, bits & (2**64 - 1), bits >> 64
    else:
        mm, lo, hi = 0, (256 // np.dtype(dtype).itemsize if mask is None else mask), 0
    p = np.array([OP[op], mm, as_i64(lo), as_i64(hi), repeat, dst_rep, src_blk, src_rep, order, count, doff],
                 dtype=np.int64)
    res = prog.run(CASE[dtype], src=src, dst=dst, work=work, p=p, expect_ok=expect_ok)
    return res, dst, work


# ---- independent models --------------------------------------------------------------------------------

def lanes_on(dtype, mask=None, bits=None):
    per = 256 // np.dtype(dtype).itemsize
    if bits is not None:
        return np.array([(bits >> i) & 1 for i in range(per)], bool)
    m = per if mask is None else mask
    return np.arange(per) < m


def src_index(dtype, r, i, src_blk=1, src_rep=8):
    epb = 32 // np.dtype(dtype).itemsize
    return r * src_rep * epb + (i // epb) * src_blk * epb + i % epb


def tree(x: np.ndarray) -> np.generic:
    """Pairwise tree: lane 2k + lane 2k+1, then again, each addition rounded to x.dtype."""
    x = x.copy()
    while len(x) > 1:
        x = (x[0::2] + x[1::2]).astype(x.dtype)
    return x[0]


def repeat_lanes(src, dtype, r, on, src_blk=1, src_rep=8):
    per = len(on)
    return np.array([src[src_index(dtype, r, i, src_blk, src_rep)] if on[i] else 0 for i in range(per)], dtype)


# ---- WholeReduceSum / RepeatReduceSum ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_whole_reduce_sum_full_repeats_is_a_pairwise_tree(prog, dtype):
    rng = np.random.default_rng(1)
    src = rng.uniform(-4, 4, 5 * 256 // np.dtype(dtype).itemsize).astype(dtype)
    res, dst0, _ = run(prog, dtype, "whole_sum", src, repeat=5)
    out = res.out("dst", dtype)
    on = lanes_on(dtype)
    expect = [tree(repeat_lanes(src, dtype, r, on)) for r in range(5)]
    np.testing.assert_array_equal(out[:5], np.array(expect, dtype))
    np.testing.assert_array_equal(out[5:], dst0[5:])  # nothing else written
    per = len(on)
    exact = src.astype(np.float64).reshape(5, per).sum(axis=1)
    np.testing.assert_allclose(out[:5].astype(np.float64), exact, rtol=0, atol=0.05 if dtype == np.float16 else 1e-4)


def test_whole_reduce_sum_half_uses_tree_not_sequential_order(prog):
    # 2048 + 127 ones: adding the ones one by one to 2048 in half loses every one (2049 -> 2048);
    # the documented tree adds the ones among themselves first.
    src = np.concatenate([[2048.0], np.ones(127)]).astype(np.float16)
    res, _, _ = run(prog, np.float16, "whole_sum", src, repeat=1)
    got = res.out("dst", np.float16)[0]
    assert got == tree(src) == np.float16(2174.0)
    seq = np.float16(0)
    for v in src:
        seq = np.float16(seq + v)
    assert seq == 2048 and got != seq


def test_whole_reduce_sum_half_overflow_gives_inf(prog):
    src = np.zeros(128, np.float16)
    src[:4] = [60000, 60000, -30000, 100]  # 60000 + 60000 overflows in the first tree level
    res, _, _ = run(prog, np.float16, "whole_sum", src)
    assert np.isposinf(res.out("dst", np.float16)[0])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("mask,bits", [(37, None), (None, (1 << 70) | (1 << 63) | 0b1011)])
def test_whole_reduce_sum_masks_and_strides(prog, dtype, mask, bits):
    per = 256 // np.dtype(dtype).itemsize
    if bits is not None and per == 64:
        bits &= 2**64 - 1  # float: only mask[0] counts
    rng = np.random.default_rng(2)
    src = rng.uniform(-2, 2, 8 * per).astype(dtype)
    res, dst0, _ = run(prog, dtype, "whole_sum", src, mask=mask, bits=bits, repeat=3, dst_rep=3, src_blk=2, src_rep=20)
    out = res.out("dst", dtype)
    on = lanes_on(dtype, mask, bits)
    expect = dst0.copy()
    for r in range(3):
        expect[r * 3] = tree(repeat_lanes(src, dtype, r, on, 2, 20))
    np.testing.assert_array_equal(out, expect)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_repeat_reduce_sum_matches_whole_reduce_sum_with_normal_mask(prog, dtype):
    rng = np.random.default_rng(3)
    per = 256 // np.dtype(dtype).itemsize
    src = rng.uniform(-1, 1, 4 * per).astype(dtype)
    a, _, _ = run(prog, dtype, "repeat_sum", src, mask=per - 3, repeat=4, dst_rep=2)
    b, _, _ = run(prog, dtype, "whole_sum", src, mask=per - 3, repeat=4, dst_rep=2)
    np.testing.assert_array_equal(a.out("dst", dtype), b.out("dst", dtype))
    on = lanes_on(dtype, per - 3)
    assert a.out("dst", dtype)[6] == tree(repeat_lanes(src, dtype, 3, on))


def test_whole_reduce_sum_register_mask_when_isSetMask_false(prog):
    rng = np.random.default_rng(4)
    src = rng.uniform(-1, 1, 128).astype(np.float32)
    bits = 0xF0F0_0000_0000_0F0F
    res, _, _ = run(prog, np.float32, "whole_sum_register", src, bits=bits, repeat=2)
    on = lanes_on(np.float32, bits=bits)
    out = res.out("dst", np.float32)
    assert out[0] == tree(repeat_lanes(src, np.float32, 0, on))
    assert out[1] == tree(repeat_lanes(src, np.float32, 1, on))


def test_whole_reduce_zero_mask_or_repeat_is_a_noop(prog):
    src = np.ones(128, np.float32)
    for kw in (dict(mask=0, repeat=2), dict(repeat=0)):
        res, dst0, _ = run(prog, np.float32, "whole_sum", src, **kw)
        np.testing.assert_array_equal(res.out("dst", np.float32), dst0)


def test_whole_reduce_repeat_above_255_is_an_error(prog):
    res, _, _ = run(prog, np.float32, "whole_sum", np.ones(64, np.float32), repeat=256, expect_ok=False)
    assert res.errors and res.errors[0].code == "bad-repeat"
    assert res.errors[0].file.endswith("reduce_gather.cpp")


def test_whole_reduce_out_of_tensor_is_an_error(prog):
    res, _, _ = run(prog, np.float32, "whole_sum", np.ones(64, np.float32), repeat=2, expect_ok=False)
    assert res.errors[0].code == "ub-out-of-bounds"


# ---- WholeReduceMax / WholeReduceMin -------------------------------------------------------------------------

def extreme_ref(vals, on, is_max):
    idx = [i for i in range(len(on)) if on[i]]
    v = [float(vals[i]) for i in idx]
    best = max(v) if is_max else min(v)
    return best, idx[v.index(best)]  # first (smallest) index on ties


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", ["whole_max", "whole_min"])
@pytest.mark.parametrize("order", list(ORDER))
def test_whole_reduce_max_min_orders_and_ties(prog, dtype, op, order):
    per = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(5)
    src = rng.integers(-20, 20, 3 * per).astype(dtype)
    is_max = op == "whole_max"
    # a tie inside repeat 1: the extreme value twice, the later copy must not win
    ext = 50 if is_max else -50
    src[per + 40] = ext
    src[per + 9] = ext
    mask = per - 5
    res, dst0, _ = run(prog, dtype, op, src, mask=mask, repeat=3, dst_rep=2, order=ORDER[order], nd=64)
    raw = res.out("dst", np.uint8)
    expect = bytearray(dst0.tobytes())
    on = lanes_on(dtype, mask)
    size = np.dtype(dtype).itemsize
    uint = UINT[dtype]
    for r in range(3):
        v, i = extreme_ref(src[r * per:(r + 1) * per], on, is_max)
        vb = np.array([v], dtype).tobytes()
        ib = np.array([i], uint).tobytes()
        if order == "value_index":
            unit, blob = 2 * size, vb + ib
        elif order == "index_value":
            unit, blob = 2 * size, ib + vb
        elif order == "only_value":
            unit, blob = size, vb
        else:
            unit, blob = 4, np.array([i], np.uint32).tobytes()
        off = r * 2 * unit
        expect[off:off + len(blob)] = blob
    # repeat 1 holds the extreme twice (lanes 9 and 40): the expected bytes carry index 9
    np.testing.assert_array_equal(raw, np.frombuffer(bytes(expect), np.uint8))


def test_whole_reduce_max_documented_example_index_bits(prog):
    # one repeat of half 1s with 11 at position 52: dst = [11, half bits 0x0034]
    src = np.ones(128, np.float16)
    src[52] = 11
    res, _, _ = run(prog, np.float16, "whole_max", src)
    out = res.out("dst", np.float16)
    assert out[0] == 11 and out[1:2].view(np.uint16)[0] == 52
    assert np.isclose(float(out[1]), 3.09944e-06, rtol=1e-4)


def test_whole_reduce_max_value_index_needs_4_byte_aligned_half_dst(prog):
    res, _, _ = run(prog, np.float16, "whole_max", np.ones(128, np.float16), doff=1, expect_ok=False)
    assert res.errors[0].code == "ub-misaligned"


# ---- BlockReduceSum / Max / Min -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", ["block_sum", "block_max", "block_min"])
@pytest.mark.parametrize("mask", [None, 21])
def test_block_reduce(prog, dtype, op, mask):
    per = 256 // np.dtype(dtype).itemsize
    epb = per // 8
    rng = np.random.default_rng(6)
    src = rng.uniform(-3, 3, 6 * per).astype(dtype)
    res, dst0, _ = run(prog, dtype, op, src, mask=mask, repeat=2, dst_rep=2, src_blk=2, src_rep=24, nd=64)
    out = res.out("dst", dtype)
    on = lanes_on(dtype, mask)
    expect = dst0.copy()
    for r in range(2):
        lanes = repeat_lanes(src, dtype, r, on, 2, 24)
        for b in range(8):
            sel = on[b * epb:(b + 1) * epb]
            if not sel.any():
                continue  # documented: a fully masked block keeps the old dst value
            blk = lanes[b * epb:(b + 1) * epb]
            if op == "block_sum":
                val = tree(blk)
            elif op == "block_max":
                val = blk[sel].max()
            else:
                val = blk[sel].min()
            expect[r * 16 + b] = val
    np.testing.assert_array_equal(out, expect)
    if mask == 21:
        assert (out[21 // epb + 1:8] == dst0[0]).all()


def test_block_reduce_documented_example(prog):
    src = np.ones(128, np.float16)
    src[10] = 2  # block 0 (16 halves) sums to 17, block 1 to 16, ...
    res, _, _ = run(prog, np.float16, "block_max", src)
    np.testing.assert_array_equal(res.out("dst", np.float16)[:8], [2, 1, 1, 1, 1, 1, 1, 1])
    res, _, _ = run(prog, np.float16, "block_sum", src)
    np.testing.assert_array_equal(res.out("dst", np.float16)[:8], [17, 16, 16, 16, 16, 16, 16, 16])


# ---- PairReduceSum ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_pair_reduce_sum(prog, dtype):
    per = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(7)
    src = rng.uniform(-9, 9, 2 * per).astype(dtype)
    mask = per - 3  # the last pair with an enabled lane is half masked
    res, dst0, _ = run(prog, dtype, "pair_sum", src, mask=mask, repeat=2, dst_rep=2, nd=4 * per)
    out = res.out("dst", dtype)
    expect = dst0.copy()
    on = lanes_on(dtype, mask)
    for r in range(2):
        lanes = repeat_lanes(src, dtype, r, on)
        for k in range(per // 2):
            if on[2 * k] or on[2 * k + 1]:
                expect[r * per + k] = (lanes[2 * k] + lanes[2 * k + 1]).astype(dtype)
    np.testing.assert_array_equal(out, expect)


# ---- ReduceSum -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("count", [1, 100, 1000, 8320])
def test_reduce_sum_count_form(prog, dtype, count):
    per = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(count)
    src = rng.uniform(0, 1, count).astype(dtype)
    res, _, work0 = run(prog, dtype, "sum_count", src, count=count, nw=16)
    got = res.out("dst", dtype)[0]
    # documented for A2: tree inside each repeat, repeat results added one after another
    acc = None
    for r in range(-(-count // per)):
        lanes = np.zeros(per, dtype)
        chunk = src[r * per:(r + 1) * per]
        lanes[:len(chunk)] = chunk
        s = tree(lanes)
        acc = s if acc is None else (acc + s).astype(dtype)
    assert got == acc
    exact = src.astype(np.float64).sum()
    repeats = -(-count // per)
    bound = repeats * float(np.spacing(np.float16(exact))) + 0.5 if dtype == np.float16 else 1e-5 * exact
    assert abs(float(got) - exact) <= bound
    np.testing.assert_array_equal(res.out("work", dtype), work0)  # count form leaves workLocal alone


def test_reduce_sum_count_form_work_may_be_src(prog):
    src = np.arange(256, dtype=np.float32)
    res, _, _ = run(prog, np.float32, "sum_count_work_is_src", src, count=256)
    assert res.out("dst", np.float32)[0] == 255 * 256 / 2


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_reduce_sum_mask_form_tree_of_trees(prog, dtype):
    per = 256 // np.dtype(dtype).itemsize
    repeat = 130
    rng = np.random.default_rng(8)
    src = rng.uniform(-1, 1, repeat * per).astype(dtype)
    mask = per - 7
    nw = -(-repeat // (32 // np.dtype(dtype).itemsize)) * (32 // np.dtype(dtype).itemsize)
    res, _, _ = run(prog, dtype, "sum_mask", src, mask=mask, repeat=repeat, nw=nw)
    on = lanes_on(dtype, mask)
    level = np.array([tree(repeat_lanes(src, dtype, r, on)) for r in range(repeat)], dtype)
    np.testing.assert_array_equal(res.out("work", dtype)[:repeat], level)  # first-round sums stay in workLocal
    while len(level) > 1:
        nxt = []
        for b in range(0, len(level), per):
            lanes = np.zeros(per, dtype)
            chunk = level[b:b + per]
            lanes[:len(chunk)] = chunk
            nxt.append(tree(lanes))
        level = np.array(nxt, dtype)
    assert res.out("dst", dtype)[0] == level[0]


def test_reduce_sum_documented_example_8320_ones(prog):
    res, _, _ = run(prog, np.float16, "sum_mask", np.ones(8320, np.float16), mask=128, repeat=65, nw=80)
    assert res.out("dst", np.float16)[0] == 8320


def test_reduce_sum_mask_form_worklocal_rule(prog):
    # 65 repeats of half need align(65, 16) = 80 elements of workLocal
    res, _, _ = run(prog, np.float16, "sum_mask", np.ones(8320, np.float16), mask=128, repeat=65, nw=64,
                    expect_ok=False)
    err = res.errors[0]
    assert err.code == "reduce-worklocal-too-small" and "80" in err.message


# ---- ReduceMax / ReduceMin -------------------------------------------------------------------------------------------

def work_rule(dtype, first_repeats, cal_index):
    """The documented sharedTmpBuffer size (elements), written from the doc's formula."""
    size = np.dtype(dtype).itemsize
    epb, per = 32 // size, 256 // size

    def up(a, b):
        return (a + b - 1) // b

    it1 = first_repeats * 2
    if not cal_index:
        return up(it1, epb) * epb
    it2_start = up(it1, epb) * epb
    it2 = up(it1, per) * 2
    if it2 == 2:
        return it2_start + up(it2, epb) * epb
    it3_start = up(it2, epb) * epb
    it3 = up(it2, per) * 2
    return it2_start + it3_start + up(it3, epb) * epb


@pytest.mark.parametrize("dtype,r,expect", [(np.float16, 65, 176), (np.float16, 255, 544), (np.float16, 511, 1056),
                                            (np.float16, 4, 32), (np.float32, 130, 288)])
def test_documented_worklocal_examples(dtype, r, expect):
    assert work_rule(dtype, r, True) == expect  # the model used below reproduces the doc's worked examples


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", ["max_count", "min_count"])
@pytest.mark.parametrize("count", [50, 999, 4000])
def test_reduce_max_min_count_form_value_and_first_index(prog, dtype, op, count):
    rng = np.random.default_rng(count)
    src = rng.integers(-500, 500, count).astype(dtype)
    is_max = op == "max_count"
    ext = 1000 if is_max else -1000
    ties = sorted(rng.choice(count, 3, replace=False))
    src[ties] = ext
    per = 256 // np.dtype(dtype).itemsize
    nw = work_rule(dtype, max(1, count // per), True)
    res, _, _ = run(prog, dtype, op, src, count=count, order=1, nw=nw)
    out = res.out("dst", dtype)
    assert out[0] == ext
    assert out[1:2].view(UINT[dtype])[0] == ties[0]  # the first of the tied extremes
    # without index: only dst[0] is written, workLocal of the smaller no-index size suffices
    res2, dst0, _ = run(prog, dtype, op, src, count=count, order=0, nw=work_rule(dtype, max(1, count // per), False))
    out2 = res2.out("dst", dtype)
    assert out2[0] == ext and out2[1] == dst0[1]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_reduce_max_count_form_worklocal_too_small(prog, dtype):
    per = 256 // np.dtype(dtype).itemsize
    count = 130 * per
    need = work_rule(dtype, 130, True)
    src = np.ones(count, dtype)
    ok, _, _ = run(prog, dtype, "max_count", src, count=count, order=1, nw=need)
    assert ok.out("dst", dtype)[0] == 1
    epb = 32 // np.dtype(dtype).itemsize
    res, _, _ = run(prog, dtype, "max_count", src, count=count, order=1, nw=need - epb, expect_ok=False)
    err = res.errors[0]
    assert err.code == "reduce-worklocal-too-small" and str(need) in err.message


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("op", ["max_mask", "min_mask"])
def test_reduce_max_min_mask_form_index_uses_repeat_stride(prog, dtype, op):
    per = 256 // np.dtype(dtype).itemsize
    epb = per // 8
    repeat, src_rep = 5, 12
    rng = np.random.default_rng(9)
    src = rng.uniform(-1, 1, repeat * src_rep * epb + per).astype(dtype)
    mask = per // 2 + 3
    res, _, work0 = run(prog, dtype, op, src, mask=mask, repeat=repeat, src_rep=src_rep, order=1,
                        nw=work_rule(dtype, repeat, True))
    on = lanes_on(dtype, mask)
    is_max = op == "max_mask"
    cands = [(float(src[src_index(dtype, r, i, 1, src_rep)]), src_index(dtype, r, i, 1, src_rep))
             for r in range(repeat) for i in range(per) if on[i]]
    best = max(c[0] for c in cands) if is_max else min(c[0] for c in cands)
    first = min(c[1] for c in cands if c[0] == best)
    out = res.out("dst", dtype)
    assert float(out[0]) == best
    assert out[1:2].view(UINT[dtype])[0] == first


def test_reduce_max_half_index_above_65535_warns(prog):
    count = 70016
    src = np.zeros(count, np.float16)
    src[70000] = 5
    nw = work_rule(np.float16, count // 128, True)
    res, _, _ = run(prog, np.float16, "max_count", src, count=count, order=1, nw=nw)
    out = res.out("dst", np.float16)
    assert out[0] == 5
    assert out[1:2].view(np.uint16)[0] == 70000 & 0xFFFF
    assert [w.code for w in res.warnings] == ["reduce-index-overflow"]
