"""``kgen bench`` end to end: real builds of team-written op projects on the emulator, the reference
in a child process, the precision rule, the JSON report and the human table."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "data" / "tasks"
PROJECTS = ROOT / "tests" / "data" / "projects"


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=900)


@pytest.fixture(scope="module")
def scaled_add_report():
    r = kgen("bench", str(TASKS / "npukb_scaled_add"), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-3000:]
    return json.loads(r.stdout)


def test_npukernelbench_task_benches_correct(scaled_add_report):
    rep = scaled_add_report
    assert rep["schema"] == "kgen.bench-report" and rep["schema_version"] == 2
    assert rep["task_format"] == "npukernelbench" and rep["compiled"] and rep["correct"]
    assert [c["case_id"] for c in rep["cases"]] == ["0", "1", "2"]
    assert [c["dtypes"][0] for c in rep["cases"]] == ["float16", "float32", "bfloat16"]
    for c in rep["cases"]:
        assert c["status"] == "pass"
        (out,) = c["outputs"]
        assert out["name"] == "y" and out["passed"] and out["mismatches"] == 0
        assert c["block_dim"] >= 1
    # 8 x 1000 halfs in 256-element chunks over 48 cores -> 32 blocks
    assert rep["cases"][0]["block_dim"] == 32
    assert rep["cases"][0]["outputs"][0]["threshold"] == pytest.approx(1e-3)
    assert rep["cases"][1]["outputs"][0]["threshold"] == pytest.approx(1e-5)


def test_wrong_kernel_is_reported_with_first_mismatch(tmp_path):
    task = tmp_path / "task"
    shutil.copytree(TASKS / "npukb_scaled_add", task)
    kernel = task / "answer" / "0" / "op_kernel" / "scaled_add.cpp"
    kernel.write_text(kernel.read_text().replace("Muls(c, b, alpha_, n);", "Muls(c, b, alpha_ + 1.0f, n);"))
    r = kgen("bench", str(task), "--case", "1")
    assert r.returncode == 1
    assert "FAIL" in r.stdout and "INCORRECT (0/1 cases)" in r.stdout
    assert "y[0, 0, 0]: got" in r.stdout


def test_kernel_rule_violation_is_an_error_case_with_location(tmp_path):
    task = tmp_path / "task"
    shutil.copytree(TASKS / "npukb_scaled_add", task)
    kernel = task / "answer" / "0" / "op_kernel" / "scaled_add.cpp"
    # a write far past the output's allocation (reads past the end only warn, as the hardware is silent)
    kernel.write_text(kernel.read_text().replace("DataCopyPad(yGm_[off], c, p);", "DataCopyPad(yGm_[off + 100000], c, p);"))
    r = kgen("bench", str(task), "--case", "1", "--json")
    assert r.returncode == 1
    (case,) = json.loads(r.stdout)["cases"]
    assert case["status"] == "error"
    assert "gm-out-of-bounds" in case["message"] and "scaled_add.cpp:" in case["message"]


def test_kernelbench_reference_with_team_project():
    r = kgen("bench", str(TASKS / "kernelbench_add.py"), "--project", str(PROJECTS / "elt_add"), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    assert rep["task_format"] == "kernelbench" and rep["correct"]
    assert rep["cases"][0]["input_shapes"] == [[16, 1000], [16, 1000]]


def test_kgen_spec_with_several_cases():
    r = kgen("bench", str(TASKS / "spec_scaled_add" / "kgen-task.toml"))
    assert r.returncode == 0, r.stderr + r.stdout
    assert "tail" in r.stdout and "multi-core" in r.stdout and "CORRECT (2/2 cases)" in r.stdout


def test_kernel_launch_program():
    r = kgen("bench", "examples/add/add.asc", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["task_format"] == "kernel-launch" and rep["correct"] and rep["cases"][0]["status"] == "pass"


@pytest.mark.parametrize(
    "args,needle",
    [
        (["no/such/task"], "no such file or directory: no/such/task"),
        ([str(TASKS / "npukb_scaled_add"), "--case", "42"], "no case '42': the task has cases 0, 1, 2"),
        ([str(TASKS / "kernelbench_add.py")], "no op project to bench"),
        ([str(TASKS / "npukb_scaled_add"), "--project", str(TASKS)], "not an op project"),
    ],
)
def test_user_mistakes_are_one_line_errors(args, needle):
    r = kgen("bench", *args)
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr


def test_npu_backend_refuses_without_cann_and_dry_run_prints_the_flow():
    r = kgen("bench", str(TASKS / "npukb_scaled_add"), "--backend", "npu")
    assert r.returncode == 2 and "no CANN toolkit found" in r.stderr and r.stderr.count("\n") == 1
    r = kgen("bench", str(TASKS / "npukb_scaled_add"), "--backend", "npu", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "msopgen gen -i" in r.stdout and "bash build.sh" in r.stdout and "custom_opp_" in r.stdout
    assert '"op": "ScaledAdd"' in r.stdout and '"bfloat16"' in r.stdout
    assert "bench_bridge.npu.run_task" in r.stdout


def test_profile_models_every_case():
    r = kgen("bench", str(TASKS / "spec_scaled_add" / "kgen-task.toml"), "--profile", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    for c in rep["cases"]:
        p = c["performance"]
        assert p["modelled_us"] > 0 and p["bound"] and p["eager_us"] > 0 and p["speedup_vs_eager"] > 0
    assert rep["performance"]["cases"] == 2 and rep["performance"]["geomean_speedup_vs_eager"] > 0
    text = kgen("bench", str(TASKS / "spec_scaled_add" / "kgen-task.toml"), "--profile")
    assert "modelled us" in text.stdout and "speedup" in text.stdout


def test_op_without_outputs_is_checked_in_place():
    r = kgen("bench", str(TASKS / "spec_inplace_scale"), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    (case,) = json.loads(r.stdout)["cases"]
    assert case["status"] == "pass" and case["outputs"][0]["name"] == "x" and case["outputs"][0]["total"] == 3000


def test_kernel_named_like_a_c_library_function_builds(tmp_path):
    # an NPU kernel may be called sqrt (NPUKernelBench's Sqrt); on the CPU that is <cmath>'s sqrt
    task = tmp_path / "sqrt_task"
    shutil.copytree(TASKS / "spec_inplace_scale", task)
    host = task / "op_host" / "inplace_scale.cpp"
    host.write_text(host.read_text().replace("class InplaceScale", "class Sqrt").replace("explicit InplaceScale", "explicit Sqrt")
                    .replace("OP_ADD(InplaceScale)", "OP_ADD(Sqrt)"))
    tiling = task / "op_host" / "inplace_scale_tiling.h"
    tiling.write_text(tiling.read_text().replace("REGISTER_TILING_DATA_CLASS(InplaceScale,", "REGISTER_TILING_DATA_CLASS(Sqrt,"))
    kernel = task / "op_kernel" / "inplace_scale.cpp"
    (task / "op_kernel" / "sqrt.cpp").write_text(kernel.read_text().replace("void inplace_scale(", "void sqrt("))
    kernel.unlink()
    r = kgen("bench", str(task), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    assert json.loads(r.stdout)["cases"][0]["status"] == "pass"


def test_numbers_and_lists_fill_missing_tensor_inputs_in_call_order():
    r = kgen("bench", str(TASKS / "spec_list_input" / "kgen-task.toml"), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    (case,) = json.loads(r.stdout)["cases"]
    assert case["status"] == "pass" and case["outputs"][0]["total"] == 40
