"""Norms over a dimension before the last (col template, mode 4; agent_graph/drafter/colplan.py): an RMS norm
over channels, L1/L2 normalisation of columns, written different ways, drafted to one form and verified on the
emulator; and the forms it refuses by name."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.colplan import ColForm, inner_reduction
from agent_graph.drafter.canonical import analyse_canonical
from tests.agent_graph.drafter_checks import assert_verified, write_reference


def _ref(tmp: Path, body: str, inputs: str, init: str = "") -> Path:
    return write_reference(tmp, body, inputs, init)


def _form(body: str, shape=(2, 6, 5, 7)) -> ColForm | str | None:
    class M(torch.nn.Module):
        def forward(self, x):
            return eval(body, {"torch": torch, "F": F, "x": x})
    return inner_reduction([analyse_canonical(M(), [torch.randn(*shape)])])


@pytest.mark.parametrize("body, prologue, combine, mean, epilogue, scale", [
    # RMS norm over channels: square, mean, + eps, sqrt, x divided by it
    ("x / torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-5)", ["Mul(row, row, row, len);"], "Add", True,
     ["Adds(acc, acc, 1e-05f, len);", "Sqrt(acc, acc, len);"], "Div"),
    # the same with rsqrt and a product (the reciprocal needs a scratch row)
    ("x * torch.rsqrt(x.pow(2).mean(1, keepdim=True) + 1e-6)", ["Mul(row, row, row, len);"], "Add", True,
     None, "Mul"),
    # F.normalize: x * x, sum, sqrt, clamp_min(eps), divide (through the expand PyTorch inserts)
    ("F.normalize(x, dim=1)", ["Mul(row, row, row, len);"], "Add", False,
     ["Sqrt(acc, acc, len);", "Maxs(acc, acc, 1e-12f, len);"], "Div"),
    # an L1 normalisation over two adjacent channel dimensions
    ("x / x.abs().sum(dim=(1, 2), keepdim=True)", ["Abs(row, row, len);"], "Add", False, [], "Div"),
])
def test_norm_spellings_read_as_one_form(body, prologue, combine, mean, epilogue, scale):
    f = _form(body)
    assert isinstance(f, ColForm), f
    assert f.mode == 4 and list(f.prologue) == prologue and f.combine == combine and f.mean == mean
    assert f.scale == scale and f.dim == -3
    if epilogue is not None:
        assert list(f.epilogue) == epilogue


def test_plain_inner_reductions_keep_their_forms():
    assert _form("x.sum(dim=1)") == ColForm("Add", -3, False, False, -3)
    assert _form("torch.softmax(x, dim=1)").mode == 1
    assert _form("x.sum(dim=-1)") is None            # the last dimension: the row template
    assert _form("(x * 2).sum(dim=1)") is None        # a chain before a reduction that does not scale x: not this form


def test_l1_normalisation_of_columns_verifies(tmp_path):
    """|x| summed over dim -2 of a 3-D tensor, x divided by it: built and checked against PyTorch."""
    ref = _ref(tmp_path, "x / torch.sum(torch.abs(x), dim=-2, keepdim=True)", "torch.randn(3, 70, 45)")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert d.plan.template == "col" and "Abs(row, row, len);" in kernel and "Div(" in kernel


@pytest.mark.parametrize("body, inputs, init, words", [
    ("x / torch.median(x, dim=1, keepdim=True)[0]", "torch.randn(2, 8, 5)", "", "median"),
])
def test_norm_forms_outside_the_template_are_refused(tmp_path, body, inputs, init, words):
    d = draft(_ref(tmp_path, body, inputs, init))
    assert isinstance(d, Unsupported) and not d.user_error and words in d.reason, d


@pytest.mark.parametrize("body, inputs, init, verify", [
    # in float16 PyTorch rounds after every op, which the col template's float epilogue does not: the
    # reduction is a stage of its own (its result rounded to float16 in the workspace), the rest a row stage
    ("x / torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-5)", "torch.randn(2, 8, 5).half()", "", True),
    ("x / torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + 1e-5) * self.w", "torch.randn(2, 8, 5)",
     "self.w = nn.Parameter(torch.randn(8, 1))", False),
    ("x / torch.sort(x, dim=1)[0].sum(dim=1, keepdim=True)", "torch.randn(2, 8, 5)", "", False),
])
def test_norm_forms_outside_the_template_run_in_stages(tmp_path, body, inputs, init, verify):
    ref = _ref(tmp_path, body, inputs, init)
    d = assert_verified(ref, tmp_path) if verify else draft(ref)
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d


def test_ops_after_a_reduction_may_read_a_value_twice():
    """x * sigmoid(x + 3) / 6 after a logsumexp over channels: x is kept in its row while sigmoid(x + 3) is
    computed in a row of its own (v0); the last op's result lands in acc."""
    f = _form("(m := torch.logsumexp(x, dim=1, keepdim=True)) * torch.sigmoid(m + 3)")
    assert isinstance(f, ColForm) and f.mode == 3
    assert list(f.epilogue) == ["Adds(v0, acc, 3.0f, len);", "Sigmoid(tap, v0, len);", "Adds(v0, tap, 0.0f, len);",
                                "Mul(acc, acc, v0, len);"]
    # 1 - m and 2 / m: a number on the left
    f = _form("1 - 2 / x.amax(dim=1)")
    assert isinstance(f, ColForm)
    assert f.epilogue[-2:] == ("Muls(acc, acc, -1.0f, len);", "Adds(acc, acc, 1.0f, len);")


def test_a_chain_with_four_values_alive_is_refused():
    f = _form("(m := x.amax(dim=1)).exp() * (m.sin() * (m.cos() * m.tanh()))")
    assert isinstance(f, str) and "more than three values alive" in f


def test_hardswish_after_logsumexp_over_channels_verifies(tmp_path):
    ref = _ref(tmp_path, "torch.clamp(2.0 - (m := torch.logsumexp(x, 1, True)) * torch.sigmoid(m + 3) / 6, -1, 1)",
               "torch.randn(2, 16, 5, 9)")
    d = assert_verified(ref, tmp_path)
    assert d.plan.template == "col"


def test_ops_after_a_softmax_over_channels_run_on_each_element(tmp_path):
    """softmax over dim 1, then s * sigmoid(s) * 2 on every element (mode 1, the ops before each store)."""
    f = _form("(s := torch.softmax(x, dim=1)) * torch.sigmoid(s) * 2.0")
    assert isinstance(f, ColForm) and f.mode == 1 and f.epilogue[-1] == "Muls(term, term, 2.0f, len);"
    ref = _ref(tmp_path, "(s := torch.softmax(x, dim=1)) * torch.sigmoid(s) * 2.0", "torch.randn(3, 12, 7, 9)")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert "// the ops after the softmax" in kernel
