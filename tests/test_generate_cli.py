"""``kgen generate`` / ``kgen runs`` through a subprocess: exit codes, files written, progress lines,
one-line errors; with a model, against the scripted OpenAI-compatible server."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.openai_server import ScriptedOpenAI

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"


def _kgen(tmp_path: Path, *args: str, cmd: str = "generate") -> subprocess.CompletedProcess:
    env = {**os.environ, "KGEN_DATA_DIR": str(tmp_path / "data")}
    env.pop("KGEN_LLM_URL", None)
    return subprocess.run([sys.executable, "-m", "assistant.cli", cmd, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=1200)


@pytest.mark.slow
def test_generate_offline_writes_a_verified_project(tmp_path):
    out = tmp_path / "out"
    r = _kgen(tmp_path, str(EXAMPLE), "--offline", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    rep = json.loads(r.stdout)
    assert rep["schema"] == "kgen.bench-report" and rep["correct"] and len(rep["cases"]) == 2
    for rel in ("op_host/add_custom.cpp", "op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp", "kgen-task.toml",
                "reference.py", "report.json", "CMakeLists.txt", "add_custom.json"):
        assert (out / rel).is_file(), rel
    assert json.loads((out / "report.json").read_text())["correct"] is True
    assert "no model configured: using the offline drafter" in r.stderr
    assert "drafted AddCustom from template 'flat'" in r.stderr
    assert "kgen: case 2/2 fp32-tail: PASS" in r.stderr
    # the written spec benches the written project on its own
    b = _kgen(tmp_path, str(out), "--json", cmd="bench")
    assert b.returncode == 0 and json.loads(b.stdout)["correct"]
    # the run is listed
    runs = _kgen(tmp_path, "--json", cmd="runs")
    assert json.loads(runs.stdout)[0]["status"] == "verified"


def test_generate_without_a_model_says_it_uses_the_drafter_and_unsupported_is_3(tmp_path):
    spec = tmp_path / "t"
    spec.mkdir()
    (spec / "reference.py").write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                                       "    def forward(self, a, b):\n        return torch.matmul(a, b)\n")
    (spec / "kgen-task.toml").write_text('reference = "reference.py"\n[[cases]]\n'
                                         'inputs = [{ shape = [4, 8] }, { shape = [8, 4] }]\n')
    r = _kgen(tmp_path, str(spec / "kgen-task.toml"), "-o", str(tmp_path / "o"))
    assert "no model configured: using the offline drafter" in r.stderr
    assert r.returncode == 3
    assert "operator matmul is not covered by the templates" in r.stderr
    assert "--llm URL" in r.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args,needle", [
    (["MISSING"], "no such file"),
    (["BAD"], "reference"),
    ([str(EXAMPLE), "--llm", "http://127.0.0.1:9/v1", "--offline"], "exclude each other"),
    ([str(EXAMPLE), "--samples", "0"], "--samples must be at least 1"),
    ([str(EXAMPLE), "--max-build-repairs", "-1"], "--max-build-repairs must be 0 or more"),
    (["--resume", "nope"], "no run nope"),
    ([], "a TASK is required"),
    ([str(EXAMPLE), "--resume", "x"], "either TASK or --resume"),
])
def test_generate_user_mistakes_are_one_line_errors(tmp_path, args, needle):
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\n")
    args = [str(tmp_path / "missing.toml") if a == "MISSING" else str(bad) if a == "BAD" else a for a in args]
    r = _kgen(tmp_path, *args)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().count("\n") == 0 and r.stderr.startswith("kgen: error: ") and needle in r.stderr


def test_unreachable_model_is_a_one_line_error_exit_1(tmp_path):
    r = _kgen(tmp_path, str(sk.TASK), "--llm", "http://127.0.0.1:9/v1", "-o", str(tmp_path / "o"))
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("kgen: error: model error:") and "Traceback" not in r.stderr


@pytest.mark.slow
def test_generate_with_a_model_repairs_wrong_results(tmp_path):
    with ScriptedOpenAI([sk.reply(sk.TILING_BUG), sk.reply(sk.GOOD)]) as srv:
        r = _kgen(tmp_path, str(sk.TASK), "--llm", srv.url, "-o", str(tmp_path / "o"), "--json")
        n = len(srv.requests)
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout)["correct"] and n == 2
    assert "kgen: case 2/2 tail: FAIL" in r.stderr and "round 1 (correctness repair)" in r.stderr
    assert (tmp_path / "o" / f"op_kernel/{sk.OP}.cpp").read_text() == sk.GOOD[f"op_kernel/{sk.OP}.cpp"]


@pytest.mark.slow
def test_generate_build_repair_bound_from_the_flag(tmp_path):
    with ScriptedOpenAI(default=sk.reply(sk.HALLUCINATED)) as srv:
        r = _kgen(tmp_path, str(sk.TASK), "--llm", srv.url, "--max-build-repairs", "0", "-o", str(tmp_path / "o"))
        n = len(srv.requests)
    assert r.returncode == 1 and n == 1
    assert "ElementwiseAdd" in r.stderr and "no repairs left" in r.stderr
    assert "build: FAILED" in r.stdout            # the best (failed) candidate's report
