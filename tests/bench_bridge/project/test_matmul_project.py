"""Team-written custom-op projects that use the Matmul API (tests/data/projects/matmul_custom and
linear_custom): describe, tiling bytes decoded with struct, results against torch, and `kgen bench`
end to end against KernelBench-style references and a kgen spec with non-aligned shapes.

matmul_custom declares KERNEL_TYPE_MIX_AIC_1_2 and uses IterateAll; linear_custom (x @ W^T + b) lets
REGIST_MATMUL_OBJ make it a MIX kernel and uses Iterate + GetTensorC with B transposed and a bias.
"""
from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from bench_bridge.project import build_project, describe_project, run_project

ROOT = Path(__file__).resolve().parents[3]
PROJECTS = ROOT / "tests" / "data" / "projects"
TASKS = ROOT / "tests" / "data" / "tasks"
FIELDS = ("usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN isBias "
          "transLength iterateOrder").split()
_CACHE: dict = {}
pytestmark = pytest.mark.slow  # every test builds a project or runs `kgen bench` (20-60 s each on a shared machine)


def built(name: str, combo: int = 0):
    if (name, combo) not in _CACHE:
        p = describe_project(PROJECTS / name)
        assert p.ok, "\n".join(d.format() for d in p.diagnostics)
        b = build_project(p, combo)
        assert b.ok, "\n".join(d.format() for d in b.diagnostics)
        _CACHE[(name, combo)] = b
    return _CACHE[(name, combo)]


def ok(r):
    assert r.ok, "\n".join(d.format() for d in r.diagnostics) + (r.run.stderr[-2000:] if r.run else "")
    return r


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=900)


def test_describe_nests_tcube_tiling():
    p = describe_project(PROJECTS / "matmul_custom")
    assert p.ok
    c = p.tiling_classes["MatmulCustomTilingData"]
    # TCubeTiling: 50 int32 fields; the op's own field follows it
    assert c.size == 204
    assert [(f["name"], f["type"], f["offset"], f["is_struct"]) for f in c.fields] == [
        ("cubeTilingData", "TCubeTiling", 0, True), ("reserved", "uint32_t", 200, False)]
    assert [i.name for i in p.inputs] == ["a", "b"] and [o.name for o in p.outputs] == ["c"]


def test_matmul_custom_tiling_and_result():
    # 96 x 64 C over 48 vector cores: at least a 16 x 16 fractal per core, so at most 6 x 4 cores of
    # 16 x 16 (hand-computed from the rule in kgen_sim/matmul/tiling_algo.h)
    torch.manual_seed(0)
    a, b = torch.randn(96, 40, dtype=torch.float16), torch.randn(40, 64, dtype=torch.float16)
    r = ok(run_project(built("matmul_custom"), [a, b], [((96, 64), torch.float16)]))
    t = dict(zip(FIELDS, struct.unpack("<18i", r.tiling_bytes[:72])))
    assert (t["usedCoreNum"], t["M"], t["N"], t["Ka"], t["Kb"]) == (24, 96, 64, 40, 40)
    assert (t["singleCoreM"], t["singleCoreN"], t["singleCoreK"]) == (16, 16, 40)
    assert (t["baseM"], t["baseN"], t["baseK"], t["isBias"]) == (16, 16, 48, 0)
    assert len(r.tiling_bytes) == 204
    assert r.block_dim == 12                    # MIX: 12 cube cores serve the 24 vector cores
    assert r.workspace_sizes == [16 * 1024 * 1024]  # GetLibApiWorkSpaceSize
    ref = (a.double() @ b.double()).to(torch.float16).float().numpy()
    got = r.outputs[0].astype(np.float32)
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("combo,dt", [(0, torch.float16), (1, torch.float32), (2, torch.bfloat16)])
def test_matmul_custom_integer_inputs_are_exact(combo, dt):
    g = torch.Generator().manual_seed(combo)
    a = torch.randint(-3, 4, (77, 130), generator=g).to(dt)
    b = torch.randint(-3, 4, (130, 45), generator=g).to(dt)
    r = ok(run_project(built("matmul_custom", combo), [a, b], [((77, 45), dt)]))
    want = (a.double() @ b.double()).to(dt).double().numpy()
    got = r.outputs[0].astype(np.float64)  # bfloat16 outputs come back as float32 (exactly)
    np.testing.assert_array_equal(got, want)


def test_linear_custom_transposed_weight_and_bias():
    torch.manual_seed(1)
    x, w, bias = torch.randn(130, 70), torch.randn(90, 70), torch.randn(90)
    r = ok(run_project(built("linear_custom", 1), [x, w, bias], [((130, 90), torch.float32)]))
    ref = (x.double() @ w.double().T + bias.double()).numpy()
    np.testing.assert_allclose(r.outputs[0], ref, rtol=1e-5, atol=1e-4)
    blk_rows, = struct.unpack("<I", r.tiling_bytes[:4])
    t = dict(zip(FIELDS, struct.unpack("<18i", r.tiling_bytes[4:76])))
    assert blk_rows == 64 and (t["baseM"], t["baseN"], t["isBias"]) == (64, 64, 1)
    assert r.block_dim == (t["usedCoreNum"] + 1) // 2


def test_bench_matmul_kernelbench_reference():
    r = kgen("bench", str(TASKS / "kernelbench_matmul.py"), "--project", str(PROJECTS / "matmul_custom"), "--json", "--profile")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    assert rep["task_format"] == "kernelbench" and rep["correct"]
    (case,) = rep["cases"]
    assert case["input_shapes"] == [[333, 250], [250, 173]] and case["dtypes"] == ["float16", "float16"]
    assert case["status"] == "pass" and case["outputs"][0]["mismatches"] == 0
    busy = case["performance"]["pipe_busy"]
    assert busy["M"] > 0 and busy["MTE1"] > 0 and busy["FIX"] > 0  # the Matmul traced its cube pipes


def test_bench_linear_spec_non_aligned_cases():
    r = kgen("bench", str(TASKS / "spec_linear" / "kgen-task.toml"), "--json")
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    assert rep["correct"] and [c["case_id"] for c in rep["cases"]] == ["tiny", "tails-fp16", "many-cores"]
    assert all(c["status"] == "pass" for c in rep["cases"])
    assert rep["cases"][0]["block_dim"] == 1 and rep["cases"][2]["block_dim"] == 24


def test_bench_detects_a_wrong_matmul_kernel(tmp_path):
    proj = tmp_path / "linear_custom"
    shutil.copytree(PROJECTS / "linear_custom", proj)
    k = proj / "op_kernel" / "linear_custom.cpp"
    k.write_text(k.read_text().replace("mm.SetTensorB(wGm, true);", "mm.SetTensorB(wGm, false);"))
    r = kgen("bench", str(TASKS / "kernelbench_linear.py"), "--project", str(proj))
    assert r.returncode == 1
    assert "INCORRECT" in r.stdout


def test_bench_reports_matmul_misuse_with_location(tmp_path):
    proj = tmp_path / "linear_custom"
    shutil.copytree(PROJECTS / "linear_custom", proj)
    h = proj / "op_host" / "linear_custom.cpp"
    h.write_text(h.read_text().replace("mm.EnableBias(true);", "mm.EnableBias(false);"))
    r = kgen("bench", str(TASKS / "kernelbench_linear.py"), "--project", str(proj), "--json")
    rep = json.loads(r.stdout)
    case = rep["cases"][0]
    assert case["status"] == "error"
    assert "matmul-bias-disabled" in case["message"] and "linear_custom.cpp:" in case["message"]


def test_weights_over_the_hand_over_limit_are_named_not_replaced_by_numbers(tmp_path):
    """nn.Linear(11600, 11600) holds 513 MiB of weights, over the 512 MiB a case hands to the op: the case says so in
    one line. Before, the init's numbers were handed over in the weights' places and the user read "the TilingFunc
    returned 4294967295"."""
    ref = tmp_path / "big_linear.py"
    ref.write_text(
        "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
        "    def __init__(self, n_in, n_out):\n        super().__init__()\n        self.fc = nn.Linear(n_in, n_out)\n\n"
        "    def forward(self, x):\n        return self.fc(x)\n\n\n"
        "def get_inputs():\n    return [torch.randn(2, 11600)]\n\n\ndef get_init_inputs():\n    return [11600, 11600]\n")
    r = kgen("bench", str(ref), "--project", str(PROJECTS / "linear_custom"), "--json")
    rep = json.loads(r.stdout)
    assert not rep["correct"] and "TilingFunc" not in r.stdout
    (case,) = rep["cases"]
    assert "own weights (513 MiB) are over the 512 MiB a case hands to the op" in case["message"], case["message"]
