"""GetReduceMaxMinCount (and its newer name GetReduceRepeatMaxMinSpr): the value and index the
max/min register holds after WholeReduceMax/Min and ReduceMax/Min, checked against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("reduce_spr.cpp")

CASES = {np.float32: "spr_f32", np.float16: "spr_f16"}


def run(prog, x, op, expect_ok=True, **kw):
    res = prog.run(CASES[x.dtype.type], x=x, op=op, expect_ok=expect_ok, **kw)
    return res, (res.out("spr", np.uint32) if expect_ok else None)


def value_of(bits, dt):
    return np.array([bits], np.uint32).view(np.float32)[0] if dt == np.float32 else \
        np.array([bits & 0xFFFF], np.uint16).view(np.float16)[0]


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("op,ref", [(0, np.argmax), (1, np.argmin)])
def test_whole_reduce_records_the_extreme_of_all_repeats(prog, dt, op, ref):
    """ReduceRepeat<MAX/MIN> over 8 contiguous repeats: the register holds the global extreme and its
    element index (the documented way to get an exact index on dav-2201)."""
    per = 256 // np.dtype(dt).itemsize
    x = np.random.default_rng(op).uniform(-1000, 1000, 8 * per).astype(dt)
    res, spr = run(prog, x, op)
    i = ref(x)
    assert value_of(spr[0], dt) == x[i]
    assert spr[1] == i  # index bits: read as uint16 (half) / uint32 (float)
    assert not res.warnings


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_ties_give_the_first_index(prog, dt):
    per = 256 // np.dtype(dt).itemsize
    x = np.zeros(4 * per, dt)
    x[[per + 5, 2 * per + 1, 3 * per + 7]] = 9  # the same maximum in repeats 1, 2 and 3
    _, spr = run(prog, x, 0)
    assert spr[1] == per + 5
    x = np.full(4 * per, 3, dt)
    x[[7, 2 * per]] = -2
    _, spr = run(prog, x, 1)
    assert spr[1] == 7 and value_of(spr[0], dt) == -2


def test_new_name_reads_the_same_register(prog):
    x = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    _, a = run(prog, x, 0)
    _, b = run(prog, x, 0, newname=1)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
@pytest.mark.parametrize("op,ref", [(2, np.argmax), (3, np.argmin)])
def test_reduce_max_min_one_repeat_value_and_index(prog, dt, op, ref):
    per = 256 // np.dtype(dt).itemsize
    x = np.random.default_rng(op + per).uniform(-50, 50, per - 3).astype(dt)  # fits one repeat
    res, spr = run(prog, x, op)
    i = ref(x)
    assert value_of(spr[0], dt) == x[i] and spr[1] == i
    assert spr[2] == spr[0] and spr[3] == spr[1]  # the register agrees with ReduceMax's dst[0], dst[1]
    assert not res.warnings


def test_reduce_max_over_several_repeats_warns_that_the_npu_index_is_not_exact(prog):
    x = np.random.default_rng(5).standard_normal(1000).astype(np.float32)
    res, spr = run(prog, x, 2)
    assert value_of(spr[0], np.float32) == x.max()  # the value is exact (documented)
    assert spr[3] == np.argmax(x)                    # ReduceMax's own index output is the exact one
    assert any(d.code == "reduce-spr-index" for d in res.warnings)


def test_non_contiguous_whole_reduce_warns(prog):
    x = np.random.default_rng(6).standard_normal(4 * 64).astype(np.float32)
    res, _ = run(prog, x, 0, srcrep=16)
    assert any(d.code == "reduce-spr-index" for d in res.warnings)


def test_reading_before_any_reduction_warns(prog):
    res, _ = run(prog, np.zeros(64, np.float32), 4)
    assert any(d.code == "reduce-spr-unset" for d in res.warnings)


def test_value_only_form_is_not_supported_on_dav_2201(prog):
    res, _ = run(prog, np.zeros(64, np.float32), 0, valueonly=1, expect_ok=False)
    assert res.errors and res.errors[0].code == "unsupported-api"
