"""A single-op reference against the offline drafter's kernel of the same op: both are one kernel
with the same copies, so their modelled times must be close (a fused chain is where kernels win)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")

from agent_graph.drafter import Unsupported, draft, measure, write_project  # noqa: E402
from bench_bridge.tasks import load_task  # noqa: E402

SUITE = Path(__file__).resolve().parents[2] / "data" / "drafter"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["relu", "tanh_chain"])
def test_drafted_kernel_against_the_modelled_eager_reference(name, tmp_path):
    task = load_task(SUITE / name / "kgen-task.toml")
    d = draft(task)
    assert not isinstance(d, Unsupported), str(d)
    m = measure.modelled(task, write_project(d.plan, tmp_path / name))
    assert "error" not in m, m
    if name == "relu":
        # one aten op: the library kernel and the drafted kernel do the same copies and one vector
        # pass each, both pay one launch -> within 15% of each other
        assert 0.85 < m["speedup"] < 1.15, m
    else:
        # a chain of several aten ops is several launches in eager mode, one fused kernel drafted
        assert m["speedup"] > 1.5, m
