"""Reductions over dimensions that are not adjacent (``x.sum((0, 2))``): read as one reduction per run of adjacent
dimensions, the last run first (``canonical._split_reduce``), a staged op of templates that each reduce one run;
verified against PyTorch on the emulator. A 16-bit sum or mean is reduced in float32 and rounded once, as PyTorch's
CPU kernels compute it (the stages would otherwise round between runs); a 16-bit max/min has no rounding."""
from __future__ import annotations

import pytest

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


@pytest.mark.parametrize("body, inputs", [
    # BatchNormV3's statistics of a float16 input: a mean over N, H, W kept as [1, C, 1, 1]
    ("(x.mean(dim=[0, 2, 3], keepdim=True), x.sum((0, 2)))", "torch.randn(6, 16, 9, 10).half()"),
    ("x.sum(dim=(0, 2), dtype=torch.float32) * 0.5", "torch.randn(4, 8, 16).bfloat16()"),
])
def test_a_16_bit_sum_or_mean_over_dimensions_that_are_not_adjacent_is_rounded_once(body, inputs, tmp_path):
    """Refused before: "one reduction per run of adjacent dimensions would round between the runs"."""
    d = assert_verified(write_reference(tmp_path, body, inputs), tmp_path)
    assert d.plan.template == "staged", d.plan.template
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert "ge::DT_FLOAT" in host[host.index("interTypes[STAGES]"):].split(";")[0]   # the first stage's sums: float32
