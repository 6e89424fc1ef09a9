"""Harness gaps that NPUKernelBench golden answers ran into (issue #3), reproduced with the kgen team's
masked_scale project (tests/data/projects/masked_scale) and a KernelBench-format reference:
  * op_host sources named .cc as well as .cpp;
  * op_host files that each include a header defining a non-inline helper (CANN links them into
    separate libraries; the emulator links one program and keeps one copy, with a warning);
  * a reference passing a torch.bool mask to an input the OpDef declares DT_UINT8 (same bytes).
Expected values from torch.where on the reference's own inputs (computed independently below)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench_bridge.project import build_project, describe_project, run_project

ROOT = Path(__file__).resolve().parents[3]
PROJECT = ROOT / "tests" / "data" / "projects" / "masked_scale"
TASK = ROOT / "tests" / "data" / "tasks" / "kernelbench_masked_scale.py"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def masked_build():
    p = describe_project(PROJECT)
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    return b


def test_helper_defined_in_a_shared_header_links_once_with_a_warning(masked_build):
    warns = [d for d in masked_build.diagnostics if d.code == "host-multiple-definition"]
    assert warns and warns[0].severity == "warning" and "RoundUpTo" in warns[0].message
    # the program runs: the TilingFunc (which calls the helper) rounds 1000/4 up to 256 per core
    n = 1000
    x = np.linspace(-3, 3, n).astype(np.float32)
    m = (np.arange(n) % 3 == 0).astype(np.uint8)
    r = run_project(masked_build, [x, m], [((n,), np.float32)], {"scale": -2.0})
    assert r.ok, "\n".join(d.format() for d in r.diagnostics)
    assert r.block_dim == 4  # ceil(1000 / 256)
    np.testing.assert_array_equal(r.outputs[0], np.where(m == 1, x * np.float32(-2.0), np.float32(0)))


def test_bench_passes_a_bool_mask_to_a_uint8_input(masked_build):
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(TASK), "--project", str(PROJECT), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    (case,) = rep["cases"]
    assert case["dtypes"] == ["float32", "bool"]
    assert case["status"] == "pass" and rep["correct"], case.get("message")
    assert case["outputs"][0]["mismatches"] == 0


# ---- complex64 (NPUKernelBench Math tasks: ComplexMatDot, Icamax, Ccopy, ...) ----------------------

def test_complex64_reference_is_saved_and_compared_as_float32_pairs(tmp_path):
    import torch

    from bench_bridge import tensorio
    from bench_bridge.bench_compare import compare_outputs
    from bench_bridge.tasks import load_task
    from bench_bridge.tasks.worker import prepare

    ref = tmp_path / "cmul.py"
    ref.write_text(
        "import torch\nimport torch.nn as nn\n\n"
        "class Model(nn.Module):\n    def forward(self, a, b):\n        return a * b\n\n"
        "def get_inputs():\n    g = torch.Generator().manual_seed(5)\n"
        "    return [torch.randn(6, dtype=torch.complex64, generator=g), torch.randn(6, dtype=torch.complex64, generator=g)]\n\n"
        "def get_init_inputs():\n    return []\n")
    out = tmp_path / "out"
    out.mkdir()
    (e,) = prepare(load_task(ref), out)
    assert e["status"] == "ok", e.get("message")
    cdir = out / e["dir"]
    a, b = (tensorio.load(cdir / m["file"]) for m in e["inputs"])
    assert a.dtype == np.complex64 and e["refs"][0]["dtype"] == "complex64"
    want = a.astype(np.complex128) * b.astype(np.complex128)  # independent product in numpy
    # interleaved (real, imag) float32 pairs, as the kernel writes them to GM
    pairs = np.stack([want.real, want.imag], axis=-1).reshape(-1).astype(np.float32)
    got = pairs.view(np.complex64)
    (ok,) = compare_outputs(["y"], e["refs"], [got], ["complex64"], cdir)
    assert ok.passed and ok.total == 12 and ok.threshold == 1e-5  # 6 values = 12 float32 components
    bad = got.copy()
    bad[4] = bad[4] + 1j  # the imaginary part of element 4 is wrong
    (c,) = compare_outputs(["y"], e["refs"], [bad], ["complex64"], cdir)
    assert not c.passed and c.mismatches == 1 and c.first_mismatch == [9]  # component 2*4+1


# ---- outputs the reference does not return (GeluQuant, GroupNormSwish[Grad]) ---------------------

SCALE_SUM = ROOT / "tests" / "data" / "projects" / "scale_sum"


def test_an_output_without_a_shape_gets_it_from_infer_shape():
    p = describe_project(SCALE_SUM)
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    x = np.linspace(-1, 1, 300).astype(np.float32)
    r = run_project(b, [x], [((300,), np.float32), (None, np.float32)], {"scale": 3.0})
    assert r.ok, "\n".join(d.format() for d in r.diagnostics)
    assert r.outputs[1] is None  # allocated from InferShape's [1], not read back
    np.testing.assert_array_equal(r.outputs[0], x * np.float32(3.0))


def test_bench_a_reference_returning_only_the_first_output(tmp_path):
    import os

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(ROOT / "tests" / "data" / "tasks" / "kernelbench_scale_first.py"),
                        "--project", str(SCALE_SUM), "--json"], capture_output=True, text=True, cwd=ROOT, timeout=1200,
                       env={**os.environ, "TMPDIR": str(tmp)})
    assert not list(tmp.glob("kgen-bench-*"))  # the run's reference tensors are removed with it
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    (case,) = rep["cases"]
    assert case["status"] == "pass" and rep["correct"], case.get("message")
    assert [o["name"] for o in case["outputs"]] == ["y"] and case["outputs"][0]["mismatches"] == 0


def test_a_sparse_forward_argument_is_not_an_operator_input(tmp_path):
    # CoalesceSparse-style: forward takes a sparse tensor, ModelNew hands the op dense tensors only
    from bench_bridge.tasks import load_task
    from bench_bridge.tasks.worker import prepare

    ref = tmp_path / "sp.py"
    ref.write_text(
        "import torch\nimport torch.nn as nn\n\n"
        "class Model(nn.Module):\n    def forward(self, values, sp):\n        return values * 2\n\n"
        "def get_inputs():\n    i = torch.tensor([[0, 1], [1, 0]])\n"
        "    return [torch.ones(2), torch.sparse_coo_tensor(i, torch.ones(2), (2, 2))]\n\n"
        "def get_init_inputs():\n    return []\n")
    out = tmp_path / "out"
    out.mkdir()
    (e,) = prepare(load_task(ref), out)
    assert e["status"] == "ok", e.get("message")
    kinds = [a["kind"] for a in e["inputs"]]
    assert kinds == ["tensor", "other"] and "sparse" in e["inputs"][1]["repr"]
    np.testing.assert_array_equal(np.load(out / e["dir"] / e["refs"][0]["file"]), np.full(2, 2.0, dtype=np.float32))


# ---- an output named like an input is that tensor updated in place (Eye) --------------------------

def test_an_output_named_like_an_input_starts_with_its_data():
    p = describe_project(ROOT / "tests" / "data" / "projects" / "set_diag")
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    y = np.arange(36, dtype=np.float32).reshape(6, 6) - 10
    r = run_project(b, [y], [((6, 6), np.float32)])
    assert r.ok, "\n".join(d.format() for d in r.diagnostics)
    want = y.copy()
    np.fill_diagonal(want, 1.0)  # only the diagonal written by the kernel
    np.testing.assert_array_equal(r.outputs[0], want)


def test_an_in_place_output_list_shares_the_input_lists_memory():
    # ScatterList's kernel writes through its *input* list: CANN binds an output named like an input to
    # that input's device memory, instance by instance. Three same-sized tensors with different data: the
    # output list must be the inputs, with only tensor 1 negated (computed here in numpy)
    p = describe_project(ROOT / "tests" / "data" / "projects" / "list_negate_one")
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    vs = [np.arange(24, dtype=np.float32).reshape(4, 6) * (k + 1) + k for k in range(3)]
    r = run_project(b, [vs, np.array([1], dtype=np.int32)], [[((4, 6), np.float32)] * 3])
    assert r.ok, "\n".join(d.format() for d in r.diagnostics)
    got = r.outputs[0]
    np.testing.assert_array_equal(got[0], vs[0])
    np.testing.assert_array_equal(got[1], -vs[1])
    np.testing.assert_array_equal(got[2], vs[2])


def _bench_one_case(task: str, project: str, tmp_path: Path) -> dict:
    """`kgen bench tests/data/tasks/TASK --project tests/data/projects/PROJECT --json` (temporary files under
    tmp_path); the report of its one case."""
    import os

    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(ROOT / "tests" / "data" / "tasks" / task),
                        "--project", str(ROOT / "tests" / "data" / "projects" / project), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=1200, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    (case,) = json.loads(r.stdout)["cases"]
    return case


def test_the_combination_whose_output_type_is_the_references_is_built(tmp_path):
    # cast_out declares float32 -> float16 and float32 -> int32 (CastMath's shape of OpDef); the reference
    # returns int32, so the second combination runs (the first would fail its TilingFunc). The values are
    # checked against the reference's own x.to(torch.int32) by the bench, and here against numpy's
    # truncation of the same inputs
    import torch

    case = _bench_one_case("kernelbench_cast_int32.py", "cast_out", tmp_path)
    assert case["status"] == "pass", case.get("message")
    assert case["outputs"][0]["dtype"] == "int32" and case["outputs"][0]["total"] == 40
    x = (torch.randn(40, generator=torch.Generator().manual_seed(3)) * 50).numpy()
    assert np.trunc(x).astype(np.int32).tolist() == torch.from_numpy(x).to(torch.int32).tolist()


def test_an_output_whose_shape_depends_on_the_computation_gets_a_shape_argument():
    # keep_positive declares y OutputShapeDependOnCompute: the kernel takes one more GM argument after y and
    # writes y's shape there (MaskedSelectV3's `shapeout`). The values are x[x > 0], computed here in numpy;
    # a reference shape other than the one the kernel writes is the kernel's wrong result
    p = describe_project(ROOT / "tests" / "data" / "projects" / "keep_positive")
    assert p.ok, "\n".join(d.format() for d in p.diagnostics)
    b = build_project(p, 0)
    assert b.ok, "\n".join(d.format() for d in b.diagnostics)
    x = np.sin(np.arange(50, dtype=np.float32))
    want = x[x > 0]
    r = run_project(b, [x], [(want.shape, np.float32)])
    assert r.ok, "\n".join(d.format() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs[0], want)
    r = run_project(b, [x], [((want.size + 1,), np.float32)])
    assert not r.ok
    err = next(d for d in r.diagnostics if d.severity == "error")
    assert "shape-out-mismatch" in (err.code or "") + err.message and f"[{want.size}]" in err.message, err.format()


def test_none_for_an_optional_input_is_an_absent_input(tmp_path):
    # the reference passes None for add_opt_bias's OPTIONAL bias (AddRmsNormQuant's shape of call): the
    # kernel gets a null address and y = x (the bench checks against the reference's own result)
    case = _bench_one_case("kernelbench_add_no_bias.py", "add_opt_bias", tmp_path)
    assert case["status"] == "pass" and case["outputs"][0]["total"] == 40, case.get("message")


def test_a_float16_input_beside_float32_ones_is_widened_exactly(tmp_path):
    # BatchNormV3's shape of call: the reference passes a float16 tensor where the OpDef declares float32
    # beside a float32 x; widening is exact, so the bench runs the float32 combination on the same values
    case = _bench_one_case("kernelbench_add_half_bias.py", "add_opt_bias", tmp_path)
    assert case["status"] == "pass" and case["outputs"][0]["total"] == 40, case.get("message")
    assert case["dtypes"] == ["float32", "float16"]


def test_an_int32_input_where_the_op_declares_int64_is_widened_exactly(tmp_path):
    # ForeachMulScalarList's shape of call: int32 tensors with an int32 scalar tensor where the OpDef
    # declares the scalars int64; the bench widens s to int64 (same values) and runs the combination
    case = _bench_one_case("kernelbench_mul_int32_scalar.py", "mul_int_scalar", tmp_path)
    assert case["status"] == "pass" and case["outputs"][0]["total"] == 37, case.get("message")
    assert case["dtypes"] == ["int32", "int32"]


TENSOR_ATTR_TASK = ROOT / "tests" / "data" / "tasks" / "kernelbench_masked_scale_tensor_attr.py"


def test_a_one_element_tensor_after_the_inputs_fills_an_attribute(masked_build):
    """masked_scale's `scale` (default 1.0) comes from the reference's one-element tensor (-1.75): the
    bench passes only if the kernel scaled by -1.75."""
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(TENSOR_ATTR_TASK), "--project", str(PROJECT), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    (case,) = rep["cases"]
    assert case["status"] == "pass" and rep["correct"], case.get("message")
