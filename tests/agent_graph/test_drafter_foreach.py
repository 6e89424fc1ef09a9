"""Foreach references (one elementwise function over every tensor of a list, NPUKernelBench's Foreach* kind):
drafted as one kernel whose lists are DYNAMIC inputs and outputs, verified on the emulator on every case; the
refusals say what a foreach kernel cannot be."""
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft
from bench_bridge.api import load_task, snake_case
from bench_bridge.tasks.model import TaskError
from tests.agent_graph.drafter_checks import assert_verified, write_reference

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "data" / "tasks"


@pytest.mark.parametrize("task", ["foreach/lerp_lists", "foreach/scaled_by_index", "foreach/divide_by_tensors",
                                  "npukb_foreach_scale"])
def test_foreach_references_verify(task, tmp_path):
    # lists of different lengths and ranks (one-element tensors among them), float32/float16/bfloat16; a forward
    # float, a per-item entry of a vector, a list of 0-d tensors, a shared one-element tensor
    d = assert_verified(TASKS / task, tmp_path)
    assert d.plan.template == "foreach"
    host = next(t for p, t in d.files.items() if p.startswith("op_host/") and p.endswith(".cpp") and "tiling" not in p)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert ".ParamType(DYNAMIC)" in host and "GetDynamicInputTensor" in host
    assert "ListTensorDesc" in kernel and "Bind(item, " in kernel


def test_the_written_project_reruns_from_its_own_spec(tmp_path):
    # kgen-task.toml describes each list as { list = [...] } and benches again from the project alone
    d = assert_verified(TASKS / "foreach" / "scaled_by_index", tmp_path, standalone=True)
    spec = (tmp_path / "project" / "kgen-task.toml").read_text()
    assert "{ list = [{ shape = [5, 9], dtype = \"float16\" }" in spec
    op_json = (tmp_path / "project" / f"{snake_case(d.plan.op_type)}.json").read_text()
    assert '"param_type": "dynamic"' in op_json


def _list_reference(tmp_path, body):
    return write_reference(tmp_path, body, "[torch.randn(4, 6), torch.randn(9)]", sig="xs")


def test_a_reduction_per_tensor_is_refused(tmp_path):
    d = draft(_list_reference(tmp_path, "[x.sum() for x in xs]"))
    assert isinstance(d, Unsupported) and "reduces" in d.reason and "foreach kernel is elementwise" in d.reason, str(d)


def test_items_that_read_each_other_are_refused(tmp_path):
    d = draft(_list_reference(tmp_path, "[x + xs[0].sum() for x in xs]"))
    assert isinstance(d, Unsupported) and "not independent" in d.reason, str(d)


def test_a_spec_list_input_must_hold_tensors(tmp_path):
    (tmp_path / "ref.py").write_text("import torch.nn as nn\nclass Model(nn.Module):\n    def forward(self, xs):\n"
                                     "        return [x * 2 for x in xs]\n")
    (tmp_path / "kgen-task.toml").write_text('reference = "ref.py"\n[[cases]]\ninputs = [{ list = [] }]\n')
    with pytest.raises(TaskError, match=r"inputs\[0\]: list must hold"):
        load_task(tmp_path / "kgen-task.toml")


def test_torch_foreach_functions_read_per_tensor(tmp_path):
    # torch._foreach_* stay whole in torch.export; kgen reads each as its function of every tensor (addcmul's
    # value given positionally)
    body = "torch._foreach_addcmul(torch._foreach_lerp(torch._foreach_exp(xs), ys, 0.3), xs, ys, -0.5)"
    inputs = "[torch.randn(5, 7), torch.randn(33)], [torch.randn(5, 7), torch.randn(33)]"
    d = assert_verified(write_reference(tmp_path, body, inputs, sig="xs, ys"), tmp_path)
    assert d.plan.template == "foreach"


def test_a_list_reference_that_needs_its_tensors_whole_is_refused_not_a_crash(tmp_path):
    # the foreach reader asks its question on the tensors' corners; a reference slicing its list by fixed sizes
    # fails there (NPUKernelBench's ScatterList did): a refusal naming why, never an exception
    ref = write_reference(tmp_path, "[t[:, :100].clone() for t in xs]", "[torch.randn(4, 128), torch.randn(2, 128)]",
                          sig="xs")
    ref.write_text(ref.read_text().replace("return [t[:, :100].clone() for t in xs]",
                                           "out = []\n        for t in xs:\n            t = t.clone()\n"
                                           "            t[:, 100:] = torch.ones(t.shape[0], 28)\n"
                                           "            out.append(t)\n        return out"))
    d = draft(ref)
    assert isinstance(d, Unsupported) or d.plan.template != "foreach"
    if isinstance(d, Unsupported):
        assert "\n" not in d.reason
