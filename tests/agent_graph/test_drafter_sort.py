"""Sorting along a dimension (template sort; before the last: strided rows, suite sort_inner_dim): topk values
and indices, sort, argsort, smallest first; refusals name the op, the dimension and the shape."""
from __future__ import annotations

from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"


@pytest.mark.parametrize("name", ["topk_values_indices", "argsort_rows"])
def test_sort_references_verify_on_every_case(name, tmp_path):
    d = assert_verified(SUITE / name / "kgen-task.toml", tmp_path)
    assert d.plan.template == "sort"
    kernel = next(v for k, v in d.files.items() if k.startswith("op_kernel/"))
    assert "Sort<float, true>" in kernel and "PIPE_ALL" not in kernel


def _ref(tmp: Path, body: str, inputs: str) -> Path:
    return write_reference(tmp, body, inputs)


@pytest.mark.parametrize("body, inputs, words", [
    ("torch.sort(x, dim=0).values", "torch.randn(5000, 3)", "rows 5000 long"),   # along dim 0: a strided row
    ("torch.topk(x, 3, sorted=False).values", "torch.randn(4, 50)", "topk with sorted=False"),
    ("x.topk(2).values", "torch.randn(2, 5000)", "rows 5000 long"),
])
def test_refusals_name_the_op_and_shape(body, inputs, words, tmp_path):
    d = draft(_ref(tmp_path, body, inputs))
    assert isinstance(d, Unsupported) and not d.user_error
    assert words in d.reason, d.reason


def test_topk_along_a_per_case_dimension_is_keyed_and_ties_are_judged_by_value(tmp_path):
    """npukb_topk_dims: topk(x, k, dim) with k and dim forward arguments, the last dimension in some cases and
    the first in others: one kernel per sorted dimension, chosen by the host from the dim attribute. The inputs
    hold many equal values; PyTorch's CPU topk orders ties by its partial sort, the kernel by position, and the
    check takes indices that pick the same values (each position once) as correct."""
    from bench_bridge.bench import BenchOptions, bench

    task = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_topk_dims"
    d = assert_verified(task, tmp_path)
    assert d.plan.template == "keyed"
    rep = bench(task, BenchOptions(project=tmp_path / "project", timeout=600))
    reasons = [o.reason for c in rep.cases for o in c.outputs if o.name == "indices"]
    assert any("differ only in the order of equal values" in r for r in reasons), reasons
