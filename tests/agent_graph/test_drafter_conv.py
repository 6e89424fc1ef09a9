"""Convolutions in the offline drafter (template conv): drafted, built and verified on the emulator against
their references (weights made by ``nn.Conv2d`` in ``__init__`` reach the kernel through the harness; weights
given to ``forward``; a fused epilogue in bf16), and the forms it refuses, each named."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft, write_project
from bench_bridge.bench import BenchOptions, bench
from tests.agent_graph.drafter_checks import assert_verified

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"


def _verified(spec: Path, tmp_path: Path) -> None:
    # benched again from the written project's own kgen-task.toml: its cases list the forward's tensors only
    d = assert_verified(spec, tmp_path, standalone=True)
    assert d.plan.template == "conv"


def test_grouped_conv2d_with_module_weights(tmp_path):
    """nn.Conv2d's own random weight and bias are op inputs after the forward input; groups 2 and 3 share a kernel."""
    spec = SUITE / "conv2d_groups" / "kgen-task.toml"
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    assert [p.name for p in d.plan.params.inputs] == ["x", "conv_weight", "conv_bias"]
    _verified(spec, tmp_path)


def test_functional_conv1d_with_epilogue_in_bf16(tmp_path):
    """F.conv1d with the weight as a forward input, then leaky_relu and clamp, rounded per op in bf16."""
    _verified(SUITE / "conv1d_leaky_clamp" / "kgen-task.toml", tmp_path)


@pytest.mark.parametrize("name, inputs", [
    ("conv_transpose1d_groups", ["x", "weight", "bias"]),
    ("conv_transpose2d_hardtanh", ["x", "up_weight", "up_bias"]),
    ("conv3d_tanh_scale", ["x", "conv_weight", "conv_bias"]),        # the scale of one value is not an input
    ("conv_transpose3d_bias_hardswish", ["x", "bias", "up_weight"]),   # the module's parameter order
])
def test_transposed_and_3d_convolutions(name, inputs, tmp_path):
    """Transposed convolutions (weight [cin, cout / groups, ...], output padding, stride larger than one: each
    output reads the inputs whose stride divides exactly) and 3-D convolutions, checked against PyTorch; a module
    tensor of one value throughout is a number in the kernel, not an op input."""
    spec = SUITE / name / "kgen-task.toml"
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    assert [p.name for p in d.plan.params.inputs] == inputs
    project = write_project(d.plan, tmp_path / "project")
    rep = bench(spec, BenchOptions(project=project, timeout=600))
    bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
    assert rep.compiled and rep.correct and not bad, bad or rep.message


def _ref(tmp_path: Path, init: str, forward: str, inputs: str, init_inputs: str = "[]") -> Path:
    p = tmp_path / "ref.py"
    p.write_text(textwrap.dedent(f"""\
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                {init}

            def forward(self, x):
                return {forward}


        def get_inputs():
            return [{inputs}]


        def get_init_inputs():
            return {init_inputs}
        """))
    return p


@pytest.mark.parametrize("init, forward, inputs, words", [
    ("self.w = nn.Parameter(torch.randn(3, 2, 3, 3))", "nn.functional.conv2d(x, self.w * 2)", "torch.randn(1, 2, 6, 6)",
     "core op aten.mul before the convolution"),
    ("self.w = nn.Parameter(torch.ones(3, 2, 3))", "nn.functional.conv1d(x, self.w)", "torch.randn(1, 2, 6)",
     "the convolution's weight holds one value throughout"),
    ("self.a, self.b = nn.Conv2d(2, 2, 3, groups=2), nn.Conv2d(2, 4, 1)", "self.b(self.a(x))", "torch.randn(1, 2, 6, 6)",
     "several convolutions or matmuls in one reference"),
    ("self.c = nn.Conv2d(2, 3, 3)", "torch.logcumsumexp(self.c(x), dim=1)", "torch.randn(1, 2, 6, 6)",
     "after the convolution: core op aten.logcumsumexp"),      # a staged op whose second stage is refused
])
def test_refusals_name_the_form_and_shape(tmp_path, init, forward, inputs, words):
    d = draft(_ref(tmp_path, init, forward, inputs))
    assert isinstance(d, Unsupported)
    assert words in str(d) and not d.user_error
