"""Every team-written suite reference: drafted, built and verified on every shape case (emulator).

The whole suite takes about an hour of one core, a third of the project's CI time, so the default run
verifies a fixed quarter of it (every fourth reference of each half by name: each family of names -- attn_, conv, matmul_,
move_, pool, row_, staged_ -- keeps members) and skips the rest, saying so; ``pytest --full-suite`` (or
``python benchmarks/drafter_suite.py``, which also prints times and speedups) verifies every reference.
A fast subset (one flat elementwise task, one row normalisation) stays in every run.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft, prebuild, write_project
from bench_bridge.bench import BenchOptions, bench

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"
FAST = {"relu", "softmax"}
ALL = sorted(p.name for p in SUITE.iterdir() if (p / "kgen-task.toml").is_file())


def _check(name: str, tmp_path: Path) -> None:
    spec = SUITE / name / "kgen-task.toml"
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    project = write_project(d.plan, tmp_path / name)
    builds = prebuild(project, jobs=2)  # every dtype combination, built at once into the build cache
    assert builds and all(b.ok for b in builds), [d.format() for b in builds for d in b.diagnostics][:3]
    rep = bench(spec, BenchOptions(project=project, timeout=600))
    bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
    assert rep.compiled, rep.message
    assert rep.correct and not bad, bad or rep.message
    assert len(rep.cases) >= 2


@pytest.mark.parametrize("name", sorted(FAST))
def test_fast_subset(name, tmp_path):
    _check(name, tmp_path)


# Known open defects: none. (The bf16 layer_norm rounding tie of issue #7 came from rounding x*rstd and
# -rstd*mean, then *w and +b, separately; PyTorch's CPU kernel's float loop is compiled to FMA: the
# drafter now uses Axpy/FusedMulAdd, each rounded once.)
KNOWN: dict[str, str] = {}


EVERY = 4
"""The default run verifies every EVERY-th reference (by name); ``--full-suite`` all of them."""


def suite_params(half: int) -> list:
    """Every other suite reference (``half`` 0 or 1): the suite is split over two test files so that a
    two-worker run (``pytest -n 2 --dist loadfile``) builds both halves at once. References outside the default
    run's quarter carry the ``full_suite`` mark (skipped unless ``--full-suite``, tests/conftest.py)."""
    params = []
    for i, n in enumerate([n for n in ALL if n not in FAST][half::2]):   # every EVERY-th of each half
        marks = [pytest.mark.xfail(reason=KNOWN[n], strict=False)] if n in KNOWN else []
        if i % EVERY:
            marks.append(pytest.mark.full_suite)
        params.append(pytest.param(n, marks=marks))
    return params


@pytest.mark.slow
@pytest.mark.parametrize("name", suite_params(0))
def test_suite(name, tmp_path):
    _check(name, tmp_path)
