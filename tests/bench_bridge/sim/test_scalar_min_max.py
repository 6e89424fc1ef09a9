"""Kernel code may call the device compiler's scalar min/max unqualified (the official SoftmaxFlashV3
example does); they coexist with std::min/std::max under `using namespace std`."""
from __future__ import annotations

import numpy as np

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("scalar_min_max.cpp")


def test_unqualified_min_max_in_kernel_code(prog):
    res = prog.run("mm", a=7, b=3, c=-5, d=2, e=25, f=-4)
    np.testing.assert_array_equal(res.out("out", np.float32), [3, 7, -5, 2, 10, 4, -5, 0])
