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
from tests.terminal import sigint_default

ROOT = Path(__file__).resolve().parents[2]
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
                                       "    def forward(self, a, b):\n        return torch.flip(a, [0]) * b\n")
    (spec / "kgen-task.toml").write_text('reference = "reference.py"\n[[cases]]\n'
                                         'inputs = [{ shape = [4, 8] }, { shape = [4, 8] }]\n')
    r = _kgen(tmp_path, str(spec / "kgen-task.toml"), "-o", str(tmp_path / "o"))
    assert "no model configured: using the offline drafter" in r.stderr
    assert r.returncode == 3
    assert "core op aten.flip.default is not covered by the templates" in r.stderr   # the canonical front end names the core op
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


# ---- requests in words (--words) ------------------------------------------------------------------

WORDS_SPEC = """```python reference.py
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y):
        return x + y
```

```toml kgen-task.toml
name = "add"
reference = "reference.py"
[[cases]]
id = "odd"
inputs = [{ shape = [3, 37], dtype = "float32" }, { shape = [3, 37], dtype = "float32" }]
```
"""


@pytest.mark.parametrize("args,needle", [
    (["--words", "add two tensors"], "--words needs a model"),
    (["--words", "add two tensors", "--offline"], "--words needs a model"),
    (["--words", "   ", "--llm", "http://127.0.0.1:9/v1"], "--words is empty"),
    ([str(EXAMPLE), "--words", "add two tensors", "--llm", "http://127.0.0.1:9/v1"], "either TASK, --words TEXT"),
    (["--resume", "x", "--words", "add"], "either TASK, --words TEXT or --resume"),
    (["--yes"], "a TASK is required (or --words TEXT"),
])
def test_words_usage_mistakes_are_one_line_errors(tmp_path, args, needle):
    r = _kgen(tmp_path, *args, "-o", str(tmp_path / "o"))
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().count("\n") == 0 and r.stderr.startswith("kgen: error: ") and needle in r.stderr
    assert not (tmp_path / "data" / "runs").exists()          # nothing was started


@pytest.mark.slow
def test_generate_from_words_with_yes_is_verified_and_names_no_template(tmp_path):
    with ScriptedOpenAI([WORDS_SPEC, sk.reply(sk.GOOD)]) as srv:
        r = _kgen(tmp_path, "--words", "add two float tensors", "--llm", srv.url, "--yes", "-o", str(tmp_path / "o"))
        first_prompt = "\n".join(m["content"] for m in srv.requests[0]["messages"] if m["role"] == "user")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "add two float tensors" in first_prompt
    assert "Use this reference?" not in r.stderr                    # --yes: not asked
    assert "kgen: plan: elementwise, model-written" in r.stderr
    summary = [x for x in r.stdout.splitlines() if x.startswith("generate: ")]
    assert len(summary) == 1 and "(elementwise, model-written)" in summary[0] and "template" not in summary[0]
    assert "1/1 cases correct" in summary[0]
    assert (tmp_path / "o" / f"op_kernel/{sk.OP}.cpp").read_text() == sk.GOOD[f"op_kernel/{sk.OP}.cpp"]


def test_generate_from_words_on_a_terminal_shows_the_spec_and_n_cancels(tmp_path):
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "KGEN_DATA_DIR": str(tmp_path / "data")}
    env.pop("KGEN_LLM_URL", None)
    with ScriptedOpenAI([WORDS_SPEC], default="no more requests expected") as srv:
        p = subprocess.Popen([sys.executable, "-m", "assistant.cli", "generate", "--words", "add two tensors",
                              "--llm", srv.url, "-o", str(tmp_path / "o")], stdin=slave, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        os.close(slave)
        os.write(master, b"n\n")          # typed ahead: read once the question is asked
        try:
            out, err = p.communicate(timeout=300)
        finally:
            os.close(master)
        n = len(srv.requests)
    assert p.returncode == 130, err[-3000:]
    assert n == 1                                                   # the spec only: no kernel was asked for
    spec = next(Path(x.split(": ")[-1].split(" (review")[0]) for x in err.splitlines() if "the model wrote" in x)
    assert spec.is_file() and spec.name == "kgen-task.toml"
    assert "            return x + y" in err.splitlines()            # the reference is shown
    assert "    odd: inputs float32[3, 37], float32[3, 37]" in err.splitlines()
    assert "Use this reference? [Y/n]" in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("kgen: cancelled: the reference was not accepted") and f"kgen generate {spec}" in last
    assert not (tmp_path / "o").exists() and out == ""


def test_generate_from_words_without_a_terminal_proceeds_with_a_note(tmp_path):
    # stdin is not a terminal (subprocess pipe) and no --yes: the spec is shown, a note says the question
    # was skipped, and the run goes on to ask for the kernel (unparseable replies end it quickly, exit 1)
    with ScriptedOpenAI([WORDS_SPEC], default=sk.UNPARSEABLE) as srv:
        r = _kgen(tmp_path, "--words", "add two tensors", "--llm", srv.url, "-o", str(tmp_path / "o"))
        n = len(srv.requests)
    assert "Use this reference?" not in r.stderr
    assert "kgen: note: no terminal to ask on: using the model's reference and cases" in r.stderr
    assert "    odd: inputs float32[3, 37], float32[3, 37]" in r.stderr.splitlines()
    assert n >= 2 and r.returncode == 1, r.stderr[-2000:]           # the kernel was asked for after the spec


def test_ctrl_c_during_generate_cancels_with_exit_130_and_no_traceback(tmp_path):
    """Issue 22 item 3: Ctrl-C (twice, as impatient users press it) while the drafted project builds:
    one 'cancelling' line, exit 130, no traceback; the run is recorded as cancelled and resumable."""
    import signal
    import threading
    import time

    env = {**os.environ, "KGEN_DATA_DIR": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    env.pop("KGEN_LLM_URL", None)
    p = subprocess.Popen([sys.executable, "-m", "assistant.cli", "generate", str(EXAMPLE), "--offline", "-o",
                          str(tmp_path / "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=ROOT, env=env, preexec_fn=sigint_default)   # as from a terminal (tests/terminal.py)
    err: list[str] = []
    drafted = threading.Event()

    def read() -> None:
        for line in p.stderr:
            err.append(line)
            if "drafted AddCustom" in line:
                drafted.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert drafted.wait(600), "".join(err)[-2000:]
        p.send_signal(signal.SIGINT)
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        p.wait(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
    reader.join(10)
    text = "".join(err)
    # 130 from kgen itself, or -SIGINT when the second Ctrl-C lands after the run stopped (Python then ends
    # by SIGINT, which a shell also reports as 130)
    assert p.returncode in (130, -signal.SIGINT), text[-2000:]
    assert "Traceback" not in text and "KeyError" not in text, text[-2000:]
    assert text.count("cancelling (the run stays resumable)") == 1
    runs = _kgen(tmp_path, "--json", cmd="runs")
    assert json.loads(runs.stdout)[0]["status"] == "cancelled"
