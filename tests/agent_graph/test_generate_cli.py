"""``kgen generate`` through a subprocess: exit codes, files written, one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"


def _kgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", "generate", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=1200)


def test_generate_offline_writes_a_verified_project(tmp_path):
    out = tmp_path / "out"
    r = _kgen(str(EXAMPLE), "--offline", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    rep = json.loads(r.stdout)
    assert rep["schema"] == "kgen.bench-report" and rep["correct"] and len(rep["cases"]) == 2
    for rel in ("op_host/add_custom.cpp", "op_host/add_custom_tiling.h", "op_kernel/add_custom.cpp", "kgen-task.toml",
                "reference.py", "report.json", "CMakeLists.txt", "add_custom.json"):
        assert (out / rel).is_file(), rel
    assert json.loads((out / "report.json").read_text())["correct"] is True
    assert "drafted AddCustom from template 'flat'" in r.stderr
    # the written spec benches the written project on its own
    b = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(out), "--json"], capture_output=True, text=True,
                       cwd=ROOT, timeout=1200)
    assert b.returncode == 0 and json.loads(b.stdout)["correct"]


def test_generate_without_offline_says_it_uses_the_drafter(tmp_path):
    spec = tmp_path / "t"
    spec.mkdir()
    (spec / "reference.py").write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                                       "    def forward(self, a, b):\n        return torch.matmul(a, b)\n")
    (spec / "kgen-task.toml").write_text('reference = "reference.py"\n[[cases]]\n'
                                         'inputs = [{ shape = [4, 8] }, { shape = [8, 4] }]\n')
    r = _kgen(str(spec / "kgen-task.toml"), "-o", str(tmp_path / "o"))
    assert "no model configured: using the offline drafter" in r.stderr
    assert r.returncode == 3
    assert "operator matmul is not covered by the templates" in r.stderr
    assert not (tmp_path / "o").exists()


def test_generate_user_mistakes_are_one_line_errors(tmp_path):
    r = _kgen(str(tmp_path / "missing.toml"), "--offline")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "no such file" in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'x'\n")
    r = _kgen(str(bad), "--offline")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "reference" in r.stderr
    r = _kgen(str(EXAMPLE), "--llm", "http://127.0.0.1:9")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "--offline" in r.stderr
