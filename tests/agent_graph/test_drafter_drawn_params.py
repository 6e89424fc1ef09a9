"""A module tensor of one value is a number the kernel writes only when every instance of the model holds that
value (a norm's ones, ``torch.full(.., 0.5)``); one drawn at random (``nn.Parameter(torch.randn(1))``) differs
between the harness's instance and the drafter's, so it is an op input like any weight."""
from __future__ import annotations

import textwrap

import torch

from bench_bridge.api import drawn_at_random, module_tensor_items
from tests.agent_graph.drafter_checks import assert_verified


class _Scaled(torch.nn.Module):
    def __init__(self, k: float):
        super().__init__()
        self.bias = torch.nn.Parameter(torch.randn(1))
        self.halves = torch.nn.Parameter(torch.full((4,), k))
        self.norm = torch.nn.LayerNorm(4)

    def forward(self, x):
        return self.norm(x) * self.halves + self.bias


def test_drawn_at_random_names_only_random_draws():
    m = _Scaled(0.5)
    assert drawn_at_random(m, [0.5]) == {"bias"}
    names = [n for n, _ in module_tensor_items(m, [0.5])]
    assert names == ["bias"]          # halves, norm.weight, norm.bias: one value in every instance


def test_a_model_that_cannot_be_built_again_keeps_the_old_rule():
    m = _Scaled(0.5)
    assert drawn_at_random(m, []) == set()      # Model() without its argument fails: nothing is called random


def test_a_random_scalar_parameter_is_an_op_input(tmp_path):
    ref = tmp_path / "ref.py"
    ref.write_text(textwrap.dedent("""\
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.bias = nn.Parameter(torch.randn(1))
                self.scale = nn.Parameter(torch.ones(1) * 2.0)

            def forward(self, x):
                return torch.relu(x) * self.scale + self.bias


        def get_inputs():
            return [torch.randn(16, 64)]


        def get_init_inputs():
            return []
        """))
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert "2.0f" in kernel and len(d.plan.params.inputs) == 2    # x and the drawn bias; the scale is a number
