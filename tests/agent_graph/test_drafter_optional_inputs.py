"""Optional tensor inputs: a forward argument that is a tensor in some cases and None in others (a layer norm's
weight and bias). The op declares it OPTIONAL, each combination of given inputs is planned as its own kernel, and
the host chooses by which inputs the call gives (``GetOptionalInputTensor``) and, after an absent one, by the
others' OpDef positions."""
from __future__ import annotations

import re
from pathlib import Path

from bench_bridge.bench import BenchOptions, bench
from tests.agent_graph.drafter_checks import assert_verified

TASK = Path(__file__).resolve().parents[1] / "data" / "tasks" / "input_groups" / "optional_affine.py"


def _files(d) -> tuple[str, str]:
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    return host, kernel


def test_a_layer_norm_whose_weight_and_bias_may_be_none_verifies_as_one_op(tmp_path):
    """Eight cases: both given, weight only, bias only, neither, a two-dimensional normalised shape (told apart
    from a one-dimensional one at the same input rank by the weight's rank); float32/float16/bfloat16. Refused
    before: "the cases pass different numbers of tensors or attributes"."""
    d = assert_verified(TASK, tmp_path, standalone=True)
    host, kernel = _files(d)
    assert d.plan.template == "keyed"
    assert re.search(r'this->Input\("weight"\)\.ParamType\(OPTIONAL\)', host)
    assert re.search(r'this->Input\("bias"\)\.ParamType\(OPTIONAL\)', host)
    assert 'this->Input("x").ParamType(REQUIRED)' in host
    assert "GetOptionalInputTensor(" in host
    # the entry takes every input; a kernel without the bias is called without it
    assert re.search(r"void optional_affine_custom\(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,", kernel)
    assert re.search(r"key\d::Run\(x, weight, y, workspace, tiling\);", kernel)
    assert re.search(r"key\d::Run\(x, y, workspace, tiling\);", kernel)


def test_a_new_call_of_a_known_structure_finds_its_kernel(tmp_path):
    """The written project run on cases it was not drafted from: another row length without a bias, another
    dtype without a weight, a rank-3 input with both."""
    d = assert_verified(TASK, tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "optional_affine.py").write_text(TASK.read_text())
    (other / "optional_affine.json").write_text("\n".join([
        '{"inputs": [{"name": "x", "type": "tensor", "dtype": "float16", "shape": [9, 72]}, {"name": "normalized_shape", "type": "attr", "dtype": "list", "value": [72]}, {"name": "weight", "type": "tensor", "dtype": "float16", "shape": [72]}, {"name": "bias", "type": "tensor", "absent": true}]}',
        '{"inputs": [{"name": "x", "type": "tensor", "dtype": "float32", "shape": [4, 3, 24]}, {"name": "normalized_shape", "type": "attr", "dtype": "list", "value": [24]}, {"name": "weight", "type": "tensor", "absent": true}, {"name": "bias", "type": "tensor", "dtype": "float32", "shape": [24]}]}',
        '{"inputs": [{"name": "x", "type": "tensor", "dtype": "bfloat16", "shape": [2, 5, 48]}, {"name": "normalized_shape", "type": "attr", "dtype": "list", "value": [48]}, {"name": "weight", "type": "tensor", "dtype": "bfloat16", "shape": [48]}, {"name": "bias", "type": "tensor", "dtype": "bfloat16", "shape": [48]}]}',
    ]) + "\n")
    rep = bench(other / "optional_affine.py", BenchOptions(project=tmp_path / "project", timeout=600))
    assert rep.correct and [c.status for c in rep.cases] == ["pass"] * 3, [(c.case_id, c.message) for c in rep.cases]
    assert d.plan.template == "keyed"
