"""The high-level byte-mask Select against numpy/torch.where, with its size helpers and shape rules."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_select.cpp")
CASES = {"sel_f32_u8": (np.float32, np.uint8), "sel_f16_u8": (np.float16, np.uint8), "sel_f16_i16": (np.float16, np.int16),
         "sel_f32_bool": (np.float32, np.bool_)}


def a32(v):
    return (v + 31) // 32 * 32


def select_sizes(n, mts, differ, reuse, ml, minimum):
    cal = min(n, 4096) if minimum else n
    v = max(1024, a32(cal) * 2 + 512)
    if differ and not reuse and ml > 1:
        v += a32(n * mts)
    return v


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("rows,sl,ml,scalarfirst,reuse", [(2, 16, 32, 0, 1), (3, 32, 32, 1, 0), (4, 64, 96, 0, 0),
                                                          (2, 8, 32, 1, 1)])
def test_select_bytes_mask(prog, case, rows, sl, ml, scalarfirst, reuse):
    dt, mt = CASES[case]
    if (sl * np.dtype(dt).itemsize) % 32 or (ml * np.dtype(mt).itemsize) % 32:
        pytest.skip("not a documented shape for these types")
    rng = np.random.default_rng(rows * sl + ml)
    x = rng.standard_normal(rows * sl).astype(dt)
    mask = rng.integers(0, 2, rows * ml).astype(mt)
    s = np.float32(7.5)
    res = prog.run(case, x=x, mask=mask, s=np.array([s], np.float32), rows=rows, sl=sl, ml=ml, scalarfirst=scalarfirst,
                   reuse=reuse, tmp=-1)
    m = mask.reshape(rows, ml)[:, :sl].astype(bool)
    xt = torch.from_numpy(x.astype(np.float32).reshape(rows, sl))
    st = torch.full_like(xt, float(dt(s)))
    mt_ = torch.from_numpy(m)
    ref = torch.where(mt_, xt, st) if scalarfirst else torch.where(mt_, st, xt)  # mask 0 picks src0
    np.testing.assert_array_equal(res.out("y", dt).reshape(rows, sl), ref.numpy().astype(dt))
    if reuse and ml != sl:  # the documented permission to rewrite the mask: compacted rows
        got_mask = res.out("mask", mt)[:rows * sl].reshape(rows, sl)
        np.testing.assert_array_equal(got_mask, mask.reshape(rows, ml)[:, :sl])
    else:
        np.testing.assert_array_equal(res.out("mask", mt), mask)
    mn, mx, mn2 = res.out("sizes", np.uint32)
    n, mts = rows * sl, np.dtype(mt).itemsize
    assert (mn, mx, mn2) == (select_sizes(n, mts, sl != ml, reuse, ml, True), select_sizes(n, mts, sl != ml, reuse, ml, False),
                             select_sizes(n, mts, sl != ml, reuse, ml, True))


def test_select_large_source_caps_the_minimum(prog):
    rows, sl, ml = 80, 64, 64
    mn, mx, _ = prog.run("sel_f32_u8", rows=rows, sl=sl, ml=ml, reuse=0, hostonly=1).out("sizes", np.uint32)
    assert mn == a32(4096) * 2 + 512 and mx == a32(rows * sl) * 2 + 512


def test_select_shape_rules(prog):
    x = np.zeros(32, np.float32)
    res = prog.run("sel_f32_u8", x=x, mask=np.zeros(32, np.uint8), s=np.array([1], np.float32), rows=1, sl=32, ml=24,
                   scalarfirst=0, reuse=1, tmp=-1, expect_ok=False)
    assert res.errors and res.errors[0].code == "select-shape"
    res = prog.run("sel_f32_u8", x=x, mask=np.zeros(32, np.uint8), s=np.array([1], np.float32), rows=1, sl=32, ml=32,
                   scalarfirst=0, reuse=1, tmp=512, expect_ok=False)
    assert res.errors and res.errors[0].code == "adv-tmp-too-small"
