"""The whole-tensor operator forms of the vector APIs (Add/Sub/Mul/Div/And/Or/Compare pages: `dst = src0 + src1`
runs the count form over dst.GetSize() elements, a comparison over src0.GetSize() elements into a bit mask),
and the coordinate helpers (MakeCoord, Crd2Idx, Layout(coord)) with Ceil / CeilAlign, against numpy."""
from __future__ import annotations

import numpy as np

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("tensor_operators.cpp")


def test_operators_compute_the_whole_tensor(prog):
    rng = np.random.default_rng(0)
    x = rng.uniform(-4, 4, 256).astype(np.float32)
    y = rng.uniform(0.5, 4, 256).astype(np.float32) * rng.choice([-1, 1], 256).astype(np.float32)
    y[::7] = x[::7]                                    # some equal pairs for >=
    xi = rng.integers(-2**31, 2**31 - 1, 256).astype(np.int32)
    yi = rng.integers(-2**31, 2**31 - 1, 256).astype(np.int32)
    res = prog.run("ops", x=x, y=y, xi=xi, yi=yi)
    assert not res.errors, res.run.stderr
    out = res.out("out", np.float32).reshape(4, 256)
    np.testing.assert_array_equal(out[0], x + y)
    np.testing.assert_array_equal(out[1], x - y)
    np.testing.assert_array_equal(out[2], x * y)
    np.testing.assert_allclose(out[3], x / y, rtol=2e-7)
    outi = res.out("outi", np.int32).reshape(2, 256)
    np.testing.assert_array_equal(outi[0], xi & yi)
    np.testing.assert_array_equal(outi[1], xi | yi)
    mask = np.unpackbits(res.out("mask", np.uint8), bitorder="little").reshape(2, 256)
    np.testing.assert_array_equal(mask[0], (x < y).astype(np.uint8))
    np.testing.assert_array_equal(mask[1], (x >= y).astype(np.uint8))


def test_coordinates_and_ceil(prog):
    res = prog.run("coord")
    got = res.out("coord", np.int64)
    assert list(got) == [33, 33, 2 * 20 + 3 * 5 + 4, 120 + 4 * 100000 + 8 * 1000000, 6]
