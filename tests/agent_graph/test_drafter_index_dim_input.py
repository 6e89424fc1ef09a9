"""A gather whose dimension is the value of a one-element integer input (NPUKernelBench's GatherV3 spelling:
``index_select(x, dim=axis)`` with ``axis`` a tensor). ``torch.export`` cannot read such a value ("data-dependent");
the drafter exports with the input held as a constant, checks that its value is the indexed dimension and nothing
else, and the host reads it at run time (the input declared ValueDepend), so one kernel serves cases that select
along different dimensions. Built and verified on the emulator against PyTorch on every case."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.analysis import AnalysisError
from agent_graph.drafter.index import read_graph
from agent_graph.drafter.ownplan import Beside
from tests.agent_graph.drafter_checks import assert_verified

TASK = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_select_axis"


def test_the_dimension_is_read_from_its_input_by_the_host(tmp_path):
    """npukb_select_axis: dims 0, 1, -1 (int32) and 2 of ranks 2 and 3, float16/float32/bfloat16/int32; the
    binding passes the indices before the dimension (the harness maps the op's inputs by name). Refused before:
    "the reference cannot be exported by torch.export (GuardOnDataDependentSymNode ...)"."""
    d = assert_verified(TASK, tmp_path)
    assert d.plan.template == "index"
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    # the op's inputs are named as the forward names them (the harness maps the binding's to them by name)
    assert re.search(r'this->Input\("dim"\)[^;]*\.ValueDepend\(REQUIRED\);', host), host
    assert "along the dimension input 'dim' holds" in host
    assert "context->GetInputTensor(DIM_INPUT)" in host and "constexpr int64_t DIM =" not in host


class _PicksByValue(torch.nn.Module):
    def forward(self, x, k, idx):
        return x.index_select(0, idx) * k      # the integer input's value is a factor, not the dimension


class _TwoNumbers(torch.nn.Module):
    def forward(self, x, d, n, idx):
        return x.index_select(d - n, idx)      # a dimension computed from two inputs


class _Flipped(torch.nn.Module):
    def forward(self, x, d, idx):
        return x.index_select(int(d) - 1, idx)      # the input's value is not the dimension itself


def test_an_integer_input_read_for_anything_else_is_refused():
    """A one-element integer input the export would have to bake into the kernel (a number the dimension is computed
    from, a dimension computed from two inputs) is refused in one sentence, not drafted with the first case's value;
    one read as a tensor (a factor) is an op beside the gather, which the index template leaves to the others."""
    x, idx = torch.randn(6, 8), torch.tensor([1, 4])
    with pytest.raises(Beside, match="aten.mul beside a row gather"):
        read_graph(_PicksByValue(), [x, torch.tensor(3), idx])
    with pytest.raises(AnalysisError, match="not its indexed dimension"):
        read_graph(_Flipped(), [x, torch.tensor(1), idx])
    with pytest.raises(AnalysisError, match="cannot be exported by torch.export"):
        read_graph(_TwoNumbers(), [x, torch.tensor(2), torch.tensor(1), idx])


def test_gathers_with_a_constant_dimension_keep_it_in_the_host(tmp_path):
    ref = tmp_path / "ref.py"
    ref.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                   "    def forward(self, x, idx):\n        return torch.index_select(x, 1, idx)\n\n\n"
                   "def get_inputs():\n    return [torch.randn(5, 40), torch.tensor([3, 0, 39])]\n\n\n"
                   "def get_init_inputs():\n    return []\n")
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    host = next(v for k, v in d.plan.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert "constexpr int64_t DIM = 1;" in host and "ValueDepend" not in host
