"""Fill / InitConstValue (dav-2201) against a hand-written model of the documented rule: repeat r writes
blockNum blocks starting r * (blockNum + dstGap) blocks in. A block is 32 bytes in L1 and one 512-byte
fractal in L0A/L0B. Everything else keeps its previous contents. Rule breaches are reported on the
user's line."""
from __future__ import annotations

import numpy as np
import pytest

from tests.bench_bridge.sim.harness import CPP_DIR, SimProgram

prog = SimProgram.fixture("cube_fill.cpp")
SOURCE = CPP_DIR / "cube_fill.cpp"


@pytest.mark.parametrize("where,block_bytes,repeat,blocks,gap", [
    (0, 32, 5, 3, 5),     # L1: the docs' example shape (5 repeats of 3 blocks, 5 blocks apart)
    (1, 512, 3, 2, 1),    # L0A: fractals
    (2, 512, 2, 1, 3),    # L0B through InitConstValue
    (0, 32, 0, 3, 0),     # repeatTimes = 0: nothing happens
])
def test_fill_writes_blocks_per_repeat_with_gaps(prog, where, block_bytes, repeat, blocks, gap):
    res = prog.run("fill", p=np.array([where, repeat, blocks, gap], np.int64))
    assert not res.errors, res.run.stderr
    got = res.out("out", np.float32)
    epb = block_bytes // 4
    want = np.full(4096, -1.0, np.float32)
    for r in range(repeat):
        start = r * (blocks + gap) * epb
        want[start:start + blocks * epb] = 2.5
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("case,code,marker,text", [
    ("fill_ub", "wrong-position", "@fill-ub", "A1/B1 (L1), A2 (L0A) or B2 (L0B)"),
    ("fill_int8", "fill-dtype", "@fill-int8", "1-byte"),
    ("fill_l0a_misaligned", "cube-misaligned", "@fill-align", "512-byte"),
])
def test_rule_fires_on_the_users_line(prog, case, code, marker, text):
    res = prog.run(case, expect_ok=False)
    assert res.run.returncode == 3, res.run.stderr
    err = res.errors[0]
    line = next(i for i, s in enumerate(SOURCE.read_text().splitlines(), 1) if s.rstrip().endswith(marker))
    assert err.code == code and err.line == line, (err, res.run.stderr)
    assert text in err.message, err.message
