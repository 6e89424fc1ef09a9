"""A triangle of a forward input kept, the rest zeroed (template triangle, ``triangle.py``): ``torch.tril/triu``
however spelled (methods, functionals, ``where`` of ``arange`` compares, a 0/1 factor, a bool buffer), any
float/int32 dtype, the diagonal a constant or a per-case forward argument (also when it lies past a corner, so a
case's mask keeps all or nothing); every case compared exactly with PyTorch on the emulator."""
from __future__ import annotations

from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference

TASKS = Path(__file__).resolve().parents[1] / "data" / "tasks"


def test_a_per_case_diagonal_is_an_attribute_and_the_written_project_reruns(tmp_path):
    """npukb_triu_diagonal: x.triu(diagonal=d) with d a forward argument: -2, 0, 3, 4000 on a 9000-column row
    (pieces of a long row), -40 (keeps everything) and 20 on 12 columns (keeps nothing); float32/float16/
    bfloat16/int32. The host reads d from the op's attribute; the written kgen-task.toml carries each case's d,
    so the project re-runs on its own."""
    d = assert_verified(TASKS / "npukb_triu_diagonal", tmp_path, standalone=True)
    assert d.plan.template == "triangle"
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    kernel = next(v for k, v in d.files.items() if k.startswith("op_kernel/"))
    assert 'this->Attr("diagonal").AttrType(REQUIRED).Int();' in host and "AttrInt(context, 0)" in host
    assert "CMPMODE::GE" in kernel and "PIPE_ALL" not in kernel


@pytest.mark.parametrize("body, inputs, init", [
    ("torch.tril(x, 2)", "torch.randn(3, 37, 45)", ""),
    ("x.triu(-1)", "torch.randn(50, 20).half()", ""),
    ("torch.where(torch.arange(x.shape[-1]) >= torch.arange(x.shape[-2])[:, None] + 1, x, 0.0)",
     "torch.randn(2, 24, 40).bfloat16()", ""),
    ("x * torch.ones(x.shape[-2], x.shape[-1]).tril()", "torch.randn(33, 17)", ""),
    ("x.masked_fill(~self.keep, 0)", "torch.randint(-50, 50, (16, 16), dtype=torch.int32)",
     "self.register_buffer('keep', torch.ones(16, 16, dtype=torch.bool).tril(-3))"),
])
def test_spellings_of_a_triangle_verify(body, inputs, init, tmp_path):
    d = assert_verified(write_reference(tmp_path, body, inputs, init), tmp_path)
    assert d.plan.template == "triangle", d.plan.template


def test_refusals_name_the_dtype_or_leave_other_masks_to_other_templates(tmp_path):
    d = draft(write_reference(tmp_path, "torch.tril(x)", "torch.randint(0, 9, (8, 8))"))     # int64
    assert isinstance(d, Unsupported) and "int64 x" in d.reason and "triangle template" in d.reason, d
    band = tmp_path / "band"
    band.mkdir()
    d = draft(write_reference(band, "torch.tril(torch.triu(x, -1), 1)", "torch.randn(8, 8)"))   # a band: no triangle
    assert isinstance(d, Unsupported) or d.plan.template != "triangle"
