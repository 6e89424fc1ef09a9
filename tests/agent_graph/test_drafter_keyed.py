"""Shape cases that need different kernels (NPUKernelBench-kind tasks whose cases change an attribute or a
broadcast pattern): one op, a kernel per structure, the host choosing it by tiling key."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from agent_graph.drafter import variants
from agent_graph.drafter.variants import Feature, MergeError
from bench_bridge.bench import BenchOptions, bench
from tests.agent_graph.drafter_checks import assert_verified

KEYED = Path(__file__).resolve().parents[1] / "data" / "tasks" / "keyed"


def test_sum_over_a_dim_that_changes_per_case_gets_a_kernel_per_structure(tmp_path):
    d = assert_verified(KEYED / "sum_dim.py", tmp_path)
    assert d.plan.template == "keyed"
    kernel = next(v for k, v in d.files.items() if k.startswith("op_kernel/"))
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert "TILING_KEY_IS(1)" in kernel and "TILING_KEY_IS(2)" in kernel and "GET_TILING_DATA_WITH_STRUCT" in kernel
    assert "context->SetTilingKey(key);" in host and 'this->Attr("dim")' in host and 'this->Attr("keepdim")' in host
    # new sizes, the same structures (a last-dim sum of rank 1 and 2, an inner-dim sum of rank 2 and 3): the host
    # picks each kernel from the structure, not from the shapes it was drafted on
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(KEYED / "sum_dim.py", other / "sum_dim.py")
    rows = [([101], "float32", 0, False), ([3, 96], "float16", -2, True), ([2, 5, 70], "float32", 1, False),
            ([7, 31], "float32", 1, False)]
    (other / "sum_dim.json").write_text("".join(json.dumps({"inputs": [
        {"name": "x", "type": "tensor", "dtype": dt, "shape": s}, {"name": "dim", "type": "attr", "dtype": "int", "value": dim},
        {"name": "keepdim", "type": "attr", "dtype": "bool", "value": keep}]}) + "\n" for s, dt, dim, keep in rows))
    rep = bench(other / "sum_dim.py", BenchOptions(project=tmp_path / "project", timeout=600))
    assert rep.correct and [c.status for c in rep.cases] == ["pass"] * 4, [(c.case_id, c.message) for c in rep.cases]


def test_add_broadcast_in_some_cases_only(tmp_path):
    d = assert_verified(KEYED / "add_bcast.py", tmp_path)
    assert d.plan.template == "keyed"


def test_the_host_reads_only_what_tells_the_groups_apart():
    rank = Feature("rank0", "", "", [1, 2, 2, 3])
    dim = Feature("dim", "", "", [0, -1, -2, 1])
    unit = Feature("unitDims0", "", "", [0, 0, 0, 0])
    assert [f.name for f in variants._choose([dim, rank, unit], [0, 0, 1, 1])] == ["dim"]
    with pytest.raises(MergeError, match="look alike"):
        variants._choose([unit], [0, 1, 0, 1])


def test_a_mode_that_changes_the_math_chooses_the_kernel_even_where_each_case_has_its_own_dtype(tmp_path):
    """gelu_mode: 'none' in float32 and bfloat16, 'tanh' in float16. Each dtype's code was drafted from its case,
    so one kernel with the tanh GELU as its float16 code passed, and a float16 case of 'none' got the tanh
    formula. The approximation chooses the kernel instead."""
    d = assert_verified(KEYED / "gelu_mode.py", tmp_path)
    assert d.plan.template == "keyed"
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert 'std::strcmp(approximate, "tanh") == 0' in host


def test_each_case_is_traced_once_per_front_end(monkeypatch):
    """Grouping cases into kernels tries growing groups, so each case reaches the front ends many times; a trace
    takes seconds, and a 50-case task took many minutes to draft. The draft memo traces each case once."""
    from agent_graph.drafter import canonical, draft
    from bench_bridge.tasks import load_task
    calls: list[tuple] = []
    real = canonical._export

    def counted(model, inputs):
        calls.append(tuple(tuple(t.shape) for t in inputs if hasattr(t, "shape")))
        return real(model, inputs)

    monkeypatch.setattr(canonical, "_export", counted)
    task = load_task(KEYED / "sum_dim.py")
    d = draft(KEYED / "sum_dim.py")
    assert d.plan.template == "keyed"
    assert 0 < len(calls) <= len(task.cases), calls


def test_a_model_setting_the_binding_passes_is_an_attribute_that_chooses_the_kernel(tmp_path):
    """npukb_loss_reduction: Model(reduction) reduces |a - b| as 'mean', 'sum' or 'none', and ModelNew passes
    self.reduction to the operator after the tensors. The op declares the setting as a string attribute and the
    host chooses the kernel by it, not by ranks or dtypes that happen to differ between the drafted cases: a new
    case of a known setting with another rank and dtype takes that setting's kernel."""
    task = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_loss_reduction"
    d = assert_verified(task, tmp_path)
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert 'this->Attr("reduction").AttrType(OPTIONAL).String(' in host
    assert 'std::strcmp(reduction, "none") == 0' in host and "rank0 ==" not in host
    other = tmp_path / "other"
    shutil.copytree(task, other)
    (other / "validation" / "test_cases.csv").write_text(
        "case_id;shape;dtype;reduction\n0;[3, 50];float16;sum\n1;[999];bfloat16;mean\n2;[6, 7];float32;none\n")
    rep = bench(other, BenchOptions(project=tmp_path / "project", timeout=600))
    assert rep.correct and [c.status for c in rep.cases] == ["pass"] * 3, [(c.case_id, c.message) for c in rep.cases]


def test_a_binding_that_passes_a_tensor_twice_is_refused_not_drafted_wrong(tmp_path):
    """ModelNew calling l1_loss(label, predict, predict, ...) for forward(predict, label): no reordering of the
    forward's tensors gives the op's inputs; refused, saying the order (a reordering alone is taken: npukb_binding_order)."""
    from agent_graph.drafter import Unsupported, draft
    task = tmp_path / "task"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_loss_reduction", task)
    module = task / "validation" / "module.py"
    module.write_text(module.read_text().replace("l1_loss(predict, label, self.reduction)",
                                                 "l1_loss(label, predict, predict, self.reduction)"))
    d = draft(task)
    assert isinstance(d, Unsupported) and "in the order [1, 0, 0]" in d.reason, d


def test_numbers_the_model_holds_that_the_binding_passes_are_float_attributes(tmp_path):
    """npukb_held_floats: Model(alpha, epsilon) with both changing from case to case, ModelNew passing
    self.alpha, self.epsilon after the tensors (NPUKernelBench's DeepNorm). The op declares them as float
    attributes, read at run time: one kernel serves every case (no key, no constant of case 0), and the written
    project re-runs on its own."""
    task = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_held_floats"
    d = assert_verified(task, tmp_path, standalone=True)
    assert d.plan.template == "row"
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert host.index('this->Attr("alpha")') < host.index('this->Attr("epsilon")')
    assert "SetTilingKey" not in host


def test_a_binding_passing_the_tensors_in_another_order_gets_an_op_taking_them_so(tmp_path):
    """npukb_binding_order: forward(x, gamma, beta), ModelNew calls scale_shift(gamma, beta, x) (NPUKernelBench's
    MseLossGradV2 passes dout first). The op's inputs are declared in the binding's order, the harness's call
    verifies, and the written project (cases listing the tensors in the forward's order) re-runs on its own."""
    task = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_binding_order"
    d = assert_verified(task, tmp_path, standalone=True)
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert host.index('this->Input("gamma")') < host.index('this->Input("beta")') < host.index('this->Input("x")')
    assert [len(i["shape"]) for i in d.plan.case_meta[1]["inputs"]] == [3, 1, 1]   # x, gamma, beta: the forward's


def test_modes_and_floats_the_model_holds_are_attributes_the_modes_choosing_the_kernel(tmp_path):
    """npukb_held_modes: Model(lr, momentum, decay, mode, nesterov), ModelNew passing all five after the tensors
    (NPUKernelBench's ApplyFusedEmaAdam passes floats, an int mode and a flag alike). The floats are float
    attributes read at run time, the mode and the flag choose the kernel (before: nothing was an attribute, and
    each dtype's first case baked its numbers into the kernel). Each case here has its own dtype: graphs that
    differ between them are the modes' doing, not the dtypes', so a new case of mode 1 in float32 (drafted only
    in float16 and float32-with-Nesterov) finds the right kernel with its own numbers."""
    task = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_held_modes"
    d = assert_verified(task, tmp_path)
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert 'this->Attr("lr").AttrType(OPTIONAL).Float(' in host and 'this->Attr("mode").AttrType(OPTIONAL).Int(' in host
    dispatch = host[host.rindex("uint32_t key = 0;"):]
    assert "nesterov" in dispatch and "mode ==" in dispatch and "GetFloat" not in host[host.rindex("GetAttrs()"):]
    other = tmp_path / "other"
    shutil.copytree(task, other)
    (other / "validation" / "test_cases.csv").write_text(
        "case_id;shape;dtype;lr;momentum;decay;mode;nesterov\n0;[24, 40];float32;0.2;0.6;0.25;1;False\n"
        "1;[7, 9];float16;0.07;0.5;0.1;0;True\n")
    rep = bench(other, BenchOptions(project=tmp_path / "project", timeout=600))
    assert rep.correct and [c.status for c in rep.cases] == ["pass"] * 2, [(c.case_id, c.message) for c in rep.cases]


def test_a_float_value_chooses_a_kernel_only_where_no_structure_does():
    """Two groups told apart by a float attribute alone and by a mode and a flag together: the mode and the flag
    (a float is a value; compared in the dispatch with the float nearest it, 0.9f, not the double 0.9)."""
    beta = Feature("beta1", "*attrs->GetFloat(2)", "attribute 'beta1'", [0.9, 0.85, 0.92, 0.93])
    mode = Feature("mode", "*attrs->GetInt(5)", "attribute 'mode'", [0, 0, 1, 0])
    flag = Feature("bias", "*attrs->GetBool(6)", "attribute 'bias'", [True, True, True, False])
    assert variants._choose([beta, mode, flag], [0, 0, 1, 1]) == [flag, mode]
    assert variants._choose([beta], [0, 0, 1, 1]) == [beta] and beta.test(0.9) == "beta1 == 0.9f"


def test_every_scalar_the_call_passes_is_declared_in_its_place(tmp_path):
    """forward(x, flag, scale): the harness fills the op's attributes in the call's order, so an op declaring only
    the float its kernel reads (scale, at place 0) got the flag's value in it: every element wrong. The op now
    declares flag then scale, and the kernel reads scale at place 1."""
    from tests.agent_graph.drafter_checks import write_spec
    spec = write_spec(tmp_path, "x * scale + (1.0 if flag else 0.0)", "x, flag: bool, scale: float",
                      [['{ shape = [8, 16], dtype = "float32" }'], ['{ shape = [5, 7], dtype = "float16" }']],
                      args=[[True, 0.5], [True, 1.5]])
    d = assert_verified(spec, tmp_path)
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert host.index('this->Attr("flag")') < host.index('this->Attr("scale")')
    assert "GetAttrPointer<float>(1)" in host and "GetAttrPointer<float>(0)" not in host


def test_a_step_count_read_with_item_is_a_tensor_and_results_may_differ_in_number(tmp_path):
    """keyed/adamw_step: ``t = step.item() + 1`` then ``beta1 ** t`` (the export gives such numbers as symbols
    no template reads: "add does not produce a tensor" before) is read as one-element tensor ops on the step
    input; ``1 - lr * weight_decay`` is an expression of two attributes (a constant of each case before); amsgrad
    returns a fourth result: the op declares four, with an InferShape for the one a case does not return.
    The bias corrections are Python numbers (double): the host computes them from the step it reads (the input
    declared ValueDepend) and the attributes as written; the kernel does not read the step at all."""
    d = assert_verified(KEYED / "adamw_step.py", tmp_path)
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    kernel = next(v for k, v in d.files.items() if k.startswith("op_kernel/"))
    assert host.count('this->Output("') == 4 and "this->SetInferShape(" in host
    assert "if (!amsgrad)" in host and "0.99995" not in kernel
    assert re.search(r'this->Input\("step"\)[^;]*\.ValueDepend\(REQUIRED\);', host), host
    assert "std::pow(AsWritten(" in host and "InputNumber(context, 4)" in host
    assert "powf" not in kernel and "(__gm__ TI4*)step" not in kernel


def test_a_mode_that_changes_the_number_of_results_names_them_by_position(tmp_path):
    """keyed/scale_mode: one result in "static" mode (``y``), two in "dynamic" mode (``y0``, ``y1``). The harness
    matches results by position, so the one-result group's kernel writes ``y0`` (refused before: "the groups'
    kernels take different inputs"); the op declares both results."""
    d = assert_verified(KEYED / "scale_mode.py", tmp_path)
    assert d.plan.template == "keyed"
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    kernel = next(v for k, v in d.files.items() if k.startswith("op_kernel/"))
    assert host.count('this->Output("') == 2 and 'this->Output("y")' not in host
    assert "GM_ADDR y0, GM_ADDR y1" in kernel and "GM_ADDR y," not in kernel


def test_a_list_the_model_holds_is_a_list_attribute_whose_length_chooses_the_kernel(tmp_path):
    """npukb_list_attr: Model(normalized_shape, weight, eps), an RMS norm over the last len(normalized_shape)
    dimensions; ModelNew passes (x, shift, tuple(normalized_shape), weight, eps), the shift None in some cases,
    and the binding runs the op with the weight before the shift, the weight in the dtype it was given where the
    model holds it in float32 (NPUKernelBench's LayerNormV4 and AddLayerNorm).
    Cases 1 and 2 have the same input, [6, 4, 24], normalised over [4, 24] and over [24]: the host tells them
    apart by the list's length. Before, the list stopped every number the binding passes after it from being an
    attribute ("cases that need different kernels look alike to the host"); and the harness handed the op its
    inputs in the binding's order although the drafted op takes the forward's (named after its parameters)."""
    task = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_list_attr"
    d = assert_verified(task, tmp_path)
    host = next(v for k, v in d.files.items() if k.startswith("op_host/") and not k.endswith(".h"))
    assert re.search(r'this->Attr\("normalized_shape"\)\.AttrType\(OPTIONAL\)\.ListInt\(\{\d+\}\)', host)
    assert host.index('this->Attr("normalized_shape")') < host.index('this->Attr("eps").AttrType(OPTIONAL).Float(')
    dispatch = host[host.rindex("uint32_t key = 0;"):]
    assert "normalized_shapeLen == 2" in dispatch and "normalized_shapeLen == 1" in dispatch
    assert host.index('this->Input("shift").ParamType(OPTIONAL)') < host.index('this->Input("p_weight")')
