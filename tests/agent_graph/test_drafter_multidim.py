"""Reductions over dimensions that are not adjacent (``x.sum((0, 2))``): read as one reduction per run of adjacent
dimensions, the last run first (``canonical._split_reduce``), a staged op of templates that each reduce one run;
verified against PyTorch on the emulator. A 16-bit sum or mean stays refused, saying why (the stages would round
between runs where PyTorch rounds once); a 16-bit max/min has no rounding and is covered."""
from __future__ import annotations

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference


@pytest.mark.parametrize("body, inputs", [
    ("x.sum(dim=(0, 2))", "torch.randn(4, 33, 20)"),
    ("torch.amax(x, dim=[0, 2], keepdim=True)", "torch.randn(3, 17, 40)"),
    ("x.mean(dim=(1, 3))", "torch.randn(3, 10, 7, 12)"),
    ("torch.amin(x, (0, -1))", "torch.randn(5, 9, 24).half()"),
])
def test_reductions_over_dimensions_that_are_not_adjacent_verify(body, inputs, tmp_path):
    d = assert_verified(write_reference(tmp_path, body, inputs), tmp_path)
    assert d.plan.template == "staged", d.plan.template


def test_a_16_bit_sum_over_dimensions_that_are_not_adjacent_is_refused_saying_why(tmp_path):
    d = draft(write_reference(tmp_path, "x.sum(dim=(0, 2))", "torch.randn(4, 8, 16).half()"))
    assert isinstance(d, Unsupported) and "not adjacent ([0, 2] of a rank-3 tensor)" in d.reason, d
    assert "PyTorch rounds once" in d.reason
