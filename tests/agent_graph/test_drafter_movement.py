"""Data movement references (template ``move``): what the kernel is given, and what it refuses in one sentence.

Every pattern is verified on the emulator on every case by the drafter suite (``tests/data/drafter/move_*``:
transpose, permute with the order an attribute, cat of tensors and of a tensor list, stack, constant pad, pad
modes as attributes, repeat, chunk, split with an int-or-list attribute, flip, repeat_interleave, expand, unbind);
here the kernel's shape, the host's attribute reads, and the refusals.
"""
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"


def _files(d) -> tuple[str, str]:
    host = next(t for p, t in d.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    return host, kernel


def test_a_permute_order_given_as_an_argument_is_an_attribute_the_host_reads():
    d = draft(SUITE / "move_permute_dims_arg" / "kgen-task.toml")
    assert d.plan.template == "move"
    host, kernel = _files(d)
    assert 'this->Attr("dims").AttrType(REQUIRED).ListInt();' in host and "AttrList(context, 0)" in host
    assert "AttrFloat" not in host and "AttrStr" not in host      # only the helpers the plan reads are written
    assert "Gather(" in kernel and "PipeBarrier<PIPE_ALL>" not in kernel


def test_fixed_parameters_are_constants_and_no_attribute_is_declared():
    d = draft(SUITE / "move_repeat_tile" / "kgen-task.toml")
    host, _ = _files(d)
    assert "std::vector<int64_t>{2, 1, 3}" in host and ".Attr(" not in host and "GetAttrs" not in host


def test_a_split_whose_count_changes_per_case_writes_a_list_of_outputs():
    d = draft(SUITE / "move_split_sections" / "kgen-task.toml")
    host, kernel = _files(d)
    assert 'Output("y").ParamType(DYNAMIC)' in host and "ListTensorDesc yList" in kernel
    # an int in one case, a list in the other: declared a list (the harness passes a number as a list of one)
    assert 'this->Attr("split_size_or_sections").AttrType(REQUIRED).ListInt();' in host


def test_a_pad_mode_other_cases_leave_out_is_optional_with_the_forward_default(tmp_path):
    ref = tmp_path / "ref.py"
    ref.write_text(
        "import torch\nimport torch.nn.functional as F\n\n\n"
        "class Model(torch.nn.Module):\n"
        "    def forward(self, x, pad: tuple, mode: str = 'constant', value: float = None):\n"
        "        return F.pad(x, pad, mode=mode, value=value)\n\n\n"
        "def get_inputs():\n    return [torch.randn(2, 3, 8, 20), (1, 2, 3, 0), 'reflect']\n\n\n"
        "def get_init_inputs():\n    return []\n")
    d = assert_verified(ref, tmp_path)
    host, _ = _files(d)
    assert 'AttrStr(context, 1)' in host and "reflect" in host


@pytest.mark.parametrize("body,inputs,why", [
    ("F.pad(x, (1, 1), value=7)", "torch.randint(-5, 5, (4, 6))", "int64 pads with 0 only"),  # one fill word
    ("x[:, ::2].contiguous()", "torch.randn(4, 10)", "step"),                          # a strided slice
])
def test_refusals_name_what_the_move_template_cannot_do(tmp_path, body, inputs, why):
    d = draft(write_reference(tmp_path, body, inputs))
    assert isinstance(d, Unsupported) and why in d.reason, getattr(d, "reason", d)


@pytest.mark.parametrize("body,inputs", [
    ("x.permute(2, 0, 1).contiguous()", "torch.randint(-10**12, 10**12, (3, 5, 7))"),   # words beyond 32 bits
    ("torch.cat([a, b], dim=-1)", "torch.randint(-9, 9, (4, 5)), torch.randint(-9, 9, (4, 3))"),
    ("x.expand(6, -1, 5)", "torch.randint(-2**40, 2**40, (1, 3, 1))"),
    ("F.pad(x, (1, 2, 0, 1))", "torch.randint(-5, 5, (4, 1300))"),   # rows over a work unit (1024 words)
])
def test_int64_tensors_move_as_pairs_of_words(tmp_path, body, inputs):
    """8-byte elements (NPUKernelBench's ExpandV2: expand of int64 index tensors) move as two 4-byte words: the host
    plans one more dimension of 2, read whole; the kernel's element type is int32_t."""
    sig = "a, b" if "a, b" in body else "x"
    d = assert_verified(write_reference(tmp_path, body, inputs, sig=sig), tmp_path)
    assert d.plan.template == "move" and d.plan.params.inputs[0].dtypes == ["int64"]


def test_a_movement_with_arithmetic_beside_it_is_left_to_the_other_templates(tmp_path):
    # a transpose feeding an add is not pure movement: the elementwise templates take (or refuse) it
    d = draft(write_reference(tmp_path, "torch.relu(x.transpose(0, 1)) + 1", "torch.randn(8, 16)"))
    assert isinstance(d, Unsupported) or d.plan.template != "move"


@pytest.mark.parametrize("body,inputs", [
    ("x.repeat_interleave(3, dim=-1)", "torch.randn(2, 1500)"),                    # a repeat's phase across chunks
    ("F.pad(x, (1000, 1500), value=2.0)", "torch.randn(2, 700)"),                  # fill pieces wider than a unit
    ("torch.flip(x, [-1])", "torch.randn(3, 2500).half()"),                         # reversed reads per chunk
])
def test_rows_longer_than_a_work_unit_move_in_chunks(tmp_path, body, inputs):
    # an output row of more than 1024 elements is several work units: each chunk starts mid-piece
    d = assert_verified(write_reference(tmp_path, body, inputs), tmp_path)
    assert d.plan.template == "move"
