"""PhiloxRandom is Ascend 950 only (its product table marks Atlas A2/A3 unsupported): calling it on the
dav-2201 emulator is a located api-unsupported error, not a missing symbol. GetDataBlockSizeInBytes is
32 on dav-2201 (static_assert in the program) and the mask/repeat its page derives from it cover 512
halves exactly (checked against numpy)."""
from __future__ import annotations

import numpy as np

from tests.bench_bridge.sim.harness import SimProgram

prog = SimProgram.fixture("adv_philox.cpp")


def test_block_size_drives_a_full_add(prog):
    x = np.random.default_rng(0).uniform(-10, 10, 512).astype(np.float16)
    y = prog.run("block_size", x=x).out("y", np.float16)
    np.testing.assert_array_equal(y, x + x)


def test_philox_is_unsupported_with_its_line(prog):
    res = prog.run("philox", expect_ok=False)
    errs = [d for d in res.run.diagnostics if d.code == "api-unsupported"]
    assert errs and "dav-3510" in errs[0].message, res.run.stderr
    assert errs[0].file.endswith("adv_philox.cpp")
