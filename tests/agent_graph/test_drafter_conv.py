"""Convolutions in the offline drafter (template conv): drafted, built and verified on the emulator against
their references (weights made by ``nn.Conv2d`` in ``__init__`` reach the kernel through the harness; weights
given to ``forward``; a fused epilogue in bf16), and the forms it refuses, each named."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft, write_project
from bench_bridge.bench import BenchOptions, bench

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"


def _verified(spec: Path, tmp_path: Path) -> None:
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == "conv"
    project = write_project(d.plan, tmp_path / "project")
    rep = bench(spec, BenchOptions(project=project, timeout=600))
    bad = [(c.case_id, c.status, c.message) for c in rep.cases if c.status != "pass"]
    assert rep.compiled, rep.message
    assert rep.correct and not bad, bad or rep.message
    assert len(rep.cases) == 2


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
    ("self.c = nn.Conv3d(2, 3, 3)", "self.c(x)", "torch.randn(1, 2, 5, 6, 6)", "3-D convolution (input of shape [1, 2, 5, 6, 6])"),
    ("self.c = nn.ConvTranspose2d(2, 3, 3)", "self.c(x)", "torch.randn(1, 2, 6, 6)", "transposed convolution (input of shape [1, 2, 6, 6])"),
    ("self.a, self.b = nn.Conv2d(2, 2, 3, groups=2), nn.Conv2d(2, 4, 1)", "self.b(self.a(x))", "torch.randn(1, 2, 6, 6)",
     "core op aten.convolution after the convolution"),
    ("self.c = nn.Conv2d(2, 3, 3)", "torch.softmax(self.c(x), dim=1)", "torch.randn(1, 2, 6, 6)",
     "core op aten._softmax after the convolution (output of shape [1, 3, 4, 4])"),
])
def test_refusals_name_the_form_and_shape(tmp_path, init, forward, inputs, words):
    d = draft(_ref(tmp_path, init, forward, inputs))
    assert isinstance(d, Unsupported)
    assert words in str(d) and not d.user_error
