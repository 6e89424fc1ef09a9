"""The implicit-GEMM convolution benchmark's hand-written MIX kernel (benchmarks/implicit_gemm_conv/: 5HD input rows
in L1, 2-D LoadData of the im2col fractals, Mmad, Fixpipe into y, cross-core flags to the vector epilogue) builds
and verifies against its team-written reference on the emulator. Odd channel counts (C not a multiple of C0, OC not
a multiple of 16), a 5 x 5 kernel, and blocks whose rows cross image boundaries; the large case is left to the
benchmark script (benchmarks/implicit_gemm_conv.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench_bridge.bench import BenchOptions, bench

PROJECT = Path(__file__).resolve().parents[2] / "benchmarks" / "implicit_gemm_conv"


@pytest.mark.parametrize("case", ["odd", "k5", "multi"])
def test_the_implicit_gemm_convolution_verifies(case):
    rep = bench(PROJECT / "kgen-task.toml", BenchOptions(project=PROJECT, case=case, timeout=600))
    assert rep.compiled, rep.message
    assert [(c.case_id, c.status) for c in rep.cases] == [(case, "pass")], [c.message for c in rep.cases]
