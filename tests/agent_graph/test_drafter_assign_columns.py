"""``y = x.clone(); y[..., a:] = f(x[..., a:])``: an assignment to columns of a forward input (aten.slice_scatter,
the destination slice and its copy) is the rows of ``x`` with those columns replaced, i.e. the window before
and the new values side by side (the row template's concatenated output); through a cast of ``x`` too."""
import pytest

from tests.agent_graph.drafter_checks import assert_verified


def _reference(tmp_path, cast: str, inputs: str, src: str = "x"):
    p = tmp_path / "ref.py"
    p.write_text(f"""import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        x = x{cast}
        half = x.shape[-1] // 2
        y = x.clone()
        y[..., half:] = torch.tanh({src}[..., half:]) * -2.0
        return y


def get_inputs():
    return [{inputs}]


def get_init_inputs():
    return []
""")
    return p


@pytest.mark.parametrize("cast,inputs,src", [("", "torch.randn(3, 5, 40)", "x"),
                                             (".to(torch.float16)", "torch.randn(4, 6, 64)", "x"),
                                             ("", "torch.randn(11, 16)", "y")])   # the new values read from the clone
def test_assignment_to_columns_verifies(cast, inputs, src, tmp_path):
    d = assert_verified(_reference(tmp_path, cast, inputs, src), tmp_path)
    assert d.plan.template == "row"
