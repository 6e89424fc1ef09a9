"""Fill / InitGlobalMemory: the first `size` elements of a GlobalTensor become the value (documented
rule), per core on its own slice; the documented usage (fill, MTE3->MTE2 wait, atomic-add the computed
data on top) gives value + x. Checked against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_init_gm.cpp")
CASE = {np.float32: "fill_f32", np.float16: "fill_f16", np.int32: "fill_i32"}


@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int32])
@pytest.mark.parametrize("old", [0, 1])
def test_fill_then_atomic_add(prog, dt, old):
    blocks, n = 4, 256
    x = np.random.default_rng(1).integers(-50, 50, blocks * n).astype(dt)
    res = prog.run(CASE[dt], x=x, blocks=blocks, old=old)
    z = res.out("z", dt)
    fill = np.repeat(((np.arange(blocks) + 1) * 1.5).astype(dt), n)  # int32: 1.5 -> 1, 3, 4, 6
    np.testing.assert_array_equal(z, (fill + x).astype(dt))
    assert not res.errors


def test_partial_fill_leaves_the_rest(prog):
    """size 100 of 256: elements past 100 are not filled (they keep the uninitialised device
    buffer's contents, plus x)."""
    x = np.arange(256, dtype=np.float32)
    z = prog.run("fill_f32", x=x, fill=100).out("z", np.float32)
    np.testing.assert_array_equal(z[:100], x[:100] + 1.5)
    assert not np.any(z[100:] == x[100:] + 1.5)


def test_fill_past_the_tensor_is_reported(prog):
    x = np.zeros(64, np.float32)
    res = prog.run("fill_f32", x=x, fill=100000, expect_ok=False)
    assert any(d.code.startswith("gm-") for d in res.run.diagnostics), res.run.stderr
