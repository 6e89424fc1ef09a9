"""Tensor lists (DYNAMIC OpDef parameters) on the emulator.

- ListTensorDesc / TensorDesc read blocks laid out as AscendC's documentation draws them (64-bit words:
  ptr_offset, then per tensor dim | index << 32 and the shape, then the data pointers); expected
  values are the documented example's numbers and sums computed with numpy.
- A project with DYNAMIC input and output (tests/data/projects/foreach_scale, written by the kgen
  team) runs through the project harness (each list becomes one such block in GM) and through
  ``kgen bench`` on an NPUKernelBench-format task whose reference returns a Python list.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
import torch

from bench_bridge.project import build_project, describe_project, run_project
from bench_bridge.sim import build, run

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PROJECT = ROOT / "tests" / "data" / "projects" / "foreach_scale"
TASK = ROOT / "tests" / "data" / "tasks" / "npukb_foreach_scale"


@pytest.fixture(scope="module")
def prog():
    res = build([HERE / "cpp" / "list_tensor.cpp"], include_dirs=[HERE / "cpp"])
    assert res.ok, "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:]
    return res.binary


def _case(binary, name, **inputs):
    work = Path(tempfile.mkdtemp(prefix="kt-list-"))
    for k, v in inputs.items():
        np.asarray(v).tofile(work / f"{k}.bin")
    r = run(binary, [name], cwd=work)
    out = np.fromfile(work / "out.bin", dtype=np.float32) if (work / "out.bin").exists() else None
    return r, out


def test_documented_example_block(prog):
    x = np.arange(66, dtype=np.float32) * 0.5
    r, out = _case(prog, "documented", x=x, length=np.int64(72 + 16), shape_size=np.int64(2))
    assert r.ok, r.stderr
    n = 2
    assert out[0] == n  # GetSize
    np.testing.assert_allclose(out[1:3], [x[:6].sum(), x[6:].sum()], rtol=1e-6)  # GetDataObj over shape products
    assert list(out[3:5]) == [3, 3]  # GetDim
    assert list(out[5:7]) == [0, 1]  # GetIndex
    assert list(out[7:13]) == [1, 2, 3, 3, 4, 5]  # GetShape


def test_mixed_ranks_and_0d(prog):
    x = np.linspace(-2, 3, 18).astype(np.float32)
    r, out = _case(prog, "mixed_ranks", x=x)
    assert r.ok, r.stderr
    assert out[0] == 3
    np.testing.assert_allclose(out[1:4], [x[:5].sum(), x[5:17].sum(), x[17]], rtol=1e-5)
    assert list(out[4:7]) == [1, 2, 1] and list(out[7:10]) == [0, 1, 2]
    assert list(out[10:14]) == [5, 3, 4, 1]


def test_shape_size_that_disagrees_is_an_error(prog):
    r, _ = _case(prog, "documented", x=np.zeros(66, np.float32), shape_size=np.int64(3))
    assert not r.ok
    assert any(d.code == "list-tensor" and "shapeSize 3" in d.message for d in r.diagnostics), r.stderr


def test_index_past_the_list_is_an_error(prog):
    r, _ = _case(prog, "bad_index")
    assert not r.ok
    assert any(d.code == "list-tensor" and "holds 2 tensor" in d.message for d in r.diagnostics), r.stderr


# ---- a project with DYNAMIC input and output -------------------------------------------------------

@pytest.fixture(scope="module")
def op():
    p = describe_project(PROJECT)
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    return p


@pytest.fixture(scope="module")
def builds(op):
    return {}


def _built(op, builds, combo):
    if combo not in builds:
        b = build_project(op, combo)
        assert b.ok, "\n".join(d.format() for d in b.diagnostics)
        builds[combo] = b
    return builds[combo]


def test_describe_reports_dynamic_params(op):
    assert [(p.name, p.param_type) for p in op.inputs] == [("x", "dynamic"), ("scalar", "required")]
    assert [(p.name, p.param_type) for p in op.outputs] == [("y", "dynamic")]


@pytest.mark.parametrize("combo,dtype", [(0, np.float16), (1, np.float32)])
def test_list_in_list_out(op, builds, combo, dtype):
    rng = np.random.default_rng(combo)
    shapes = [(3,), (40, 17), (2, 3, 300), ()]
    xs = [np.asarray(rng.standard_normal(s)).astype(dtype) for s in shapes]
    scale = np.array([-1.75], np.float32)
    r = run_project(_built(op, builds, combo), [xs, scale], [[(x.shape, dtype) for x in xs]])
    assert r.ok, "\n".join(d.format() for d in r.diagnostics) + (r.run.stderr[-2000:] if r.run else "")
    assert r.block_dim == len(shapes)  # the TilingFunc counted the list with GetDynamicInputTensor
    assert isinstance(r.outputs[0], list) and len(r.outputs[0]) == len(xs)
    for x, y in zip(xs, r.outputs[0]):
        want = (torch.from_numpy(np.atleast_1d(x)).float() * -1.75).to(torch.from_numpy(np.atleast_1d(x)).dtype).numpy().reshape(x.shape)
        assert y.shape == x.shape
        np.testing.assert_array_equal(y, want)


def test_a_single_tensor_for_a_list_input_is_refused(op, builds):
    r = run_project(_built(op, builds, 1), [np.ones(8, np.float32), np.ones(1, np.float32)], [[((8,), np.float32)]])
    assert not r.ok and any(d.code == "bad-inputs" and "DYNAMIC" in d.message for d in r.diagnostics)


@pytest.mark.slow
def test_kgen_bench_on_a_list_task(builds):
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(TASK), "--project", str(PROJECT), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    rep = json.loads(r.stdout)
    assert rep["compiled"] and rep["correct"], r.stdout[-3000:] + r.stderr[-2000:]
    sizes = {c["case_id"]: [o["name"] for o in c["outputs"]] for c in rep["cases"]}
    assert sizes == {"0": ["y[0]"], "1": ["y[0]", "y[1]", "y[2]"], "2": ["y[0]", "y[1]"]}
    assert all(o["max_abs_error"] == 0.0 for c in rep["cases"] for o in c["outputs"])


def test_lists_and_tensors_in_another_order_go_to_their_kind():
    # the call passes (x list, scalar) while the OpDef declares scalar first, then the DYNAMIC x
    # (as ForeachPowScalarAndTensor does); lists go to DYNAMIC inputs, single tensors to the others
    from bench_bridge.bench_case import CaseRunner
    from bench_bridge.project.model import OpProject, ParamInfo

    runner = CaseRunner.__new__(CaseRunner)
    runner.op = OpProject(PROJECT, op_type="PowLike",
                          inputs=[ParamInfo("scalar", "required", ["DT_FLOAT"]), ParamInfo("x", "dynamic", ["DT_FLOAT"])])
    xs = [np.ones(3, np.float32), np.zeros(2, np.float32)]
    s = np.array([2.0], np.float32)
    inputs = [xs, s]
    assert runner._list_mismatch(inputs) == ""
    assert inputs[0] is s and inputs[1] is xs
    bad = [[s], xs]  # two lists for one DYNAMIC input: refused with the reason
    assert "declares input 'scalar' as a single tensor" in runner._list_mismatch(bad)
