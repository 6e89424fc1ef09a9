"""Every kernel-launch program under examples/ builds on the emulator, runs cleanly and passes
its own host-side check (each program compares with a reference it computes in plain C++ and
prints PASS or FAIL)."""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from bench_bridge.sim import build, run

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples").glob("*/*.asc"))


def test_there_are_enough_examples():
    assert len(EXAMPLES) >= 13, [p.name for p in EXAMPLES]


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_builds_runs_and_passes(source: Path):
    res = build([source])
    assert res.ok, "build failed:\n" + "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:]
    assert not res.errors
    with tempfile.TemporaryDirectory(prefix=f"kgen-ex-{source.stem}-") as cwd:
        r = run(res.binary, cwd=cwd, timeout=120)
    diags = "\n".join(d.format() for d in r.diagnostics)
    assert r.returncode == 0, f"exit {r.returncode}\nstdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-3000:]}\n{diags}"
    assert not r.diagnostics, f"emulator diagnostics:\n{diags}"
    lines = r.stdout.strip().splitlines()
    assert lines and re.search(r"\bPASS\b", lines[-1]), r.stdout[-3000:]
    assert not re.search(r"\bFAIL\b", r.stdout), r.stdout[-3000:]
