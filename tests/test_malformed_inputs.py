"""Malformed inputs of every kind kgen reads, through the real `kgen` CLI (a subprocess): task specs
(kgen-task.toml and its reference), NPUKernelBench task folders (test_cases.csv, module.py,
prepare_inputs.py), KernelBench .py files, settings (project kgen.toml, user config, KGEN_* variables)
and run folders (`kgen generate --resume` of a damaged run or checkpoint database).

Each must give one clear line on stderr (`kgen: error: ...` naming the file), exit status 2, no
traceback, and leave the user's files as they were (issue 20). The figures (inputs, clear messages,
tracebacks, exit codes) are printed by `python -m pytest tests/test_malformed_inputs.py -s` at the end."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ADD = ROOT / "examples" / "tasks" / "add"
NKB = ROOT / "tests" / "data" / "tasks" / "npukb_scaled_add"
SPEC = (ADD / "kgen-task.toml").read_text()
BINARY = bytes(range(256)) * 4
RESULTS: list[tuple[str, int, bool, bool]] = []     # (case, exit status, one clear line, traceback)


def _spec(tmp: Path, toml: str | bytes | None = None, reference: str | bytes | None = None) -> list[str]:
    d = tmp / "task"
    shutil.copytree(ADD, d)
    if toml is not None:
        (d / "kgen-task.toml").write_bytes(toml.encode() if isinstance(toml, str) else toml)
    if reference is not None:
        (d / "reference.py").write_bytes(reference.encode() if isinstance(reference, str) else reference)
    return ["bench", str(d / "kgen-task.toml")]


def _nkb(tmp: Path, name: str, content: str | bytes | None) -> list[str]:
    d = tmp / "ScaledAdd"
    shutil.copytree(NKB, d)
    f = d / "validation" / name
    if content is None:
        f.unlink()
    else:
        f.write_bytes(content.encode() if isinstance(content, str) else content)
    return ["bench", str(d)]


def _kernelbench(tmp: Path, content: str | bytes) -> list[str]:
    f = tmp / "model.py"
    f.write_bytes(content.encode() if isinstance(content, str) else content)
    return ["bench", str(f)]


def _project_settings(tmp: Path, content: str | bytes) -> list[str]:
    (tmp / "kgen.toml").write_bytes(content.encode() if isinstance(content, str) else content)
    return ["runs"]


def _user_config(tmp: Path, content: str | bytes) -> list[str]:
    d = tmp / "config" / "kgen"
    d.mkdir(parents=True)
    (d / "config.toml").write_bytes(content.encode() if isinstance(content, str) else content)
    return ["runs"]


RUN_ID = "20260101-000000-add-abcdef"


def _run_folder(tmp: Path, request: str | bytes | None = None, checkpoints: bytes | None = None) -> list[str]:
    """A run folder as kgen writes one (request.json, run.json, events.jsonl, checkpoints.sqlite),
    then damaged."""
    data = tmp / "data"
    run = data / "runs" / RUN_ID
    run.mkdir(parents=True)
    good = {"task": str(ADD / "kgen-task.toml"), "output": str(tmp / "out"), "label": str(ADD / "kgen-task.toml")}
    (run / "request.json").write_bytes(
        json.dumps(good).encode() if request is None else request if isinstance(request, bytes) else request.encode())
    (run / "run.json").write_text(json.dumps({"run_id": RUN_ID, "task": "add", "status": "running",
                                              "model": "offline drafter", "started": 1.0, "updated": 1.0}))
    (run / "events.jsonl").write_text('{"kind": "run_started"}\n{"kind": "node_st')
    db = data / "checkpoints.sqlite"
    if checkpoints is None:
        sqlite3.connect(db).execute("create table checkpoints (thread_id text)").connection.commit()
    else:
        db.write_bytes(checkpoints)
    return ["generate", "--resume", RUN_ID]


def _damaged_sqlite() -> bytes:
    """The first page of a real SQLite file, cut short."""
    import tempfile

    with tempfile.TemporaryDirectory() as t:
        p = Path(t) / "c.sqlite"
        c = sqlite3.connect(p)
        c.execute("create table t (x text)")
        c.executemany("insert into t values (?)", [("x" * 500,)] * 200)
        c.commit()
        c.close()
        return p.read_bytes()[:6000]


CASES = {
    # task specs
    "spec: invalid TOML": lambda t: _spec(t, 'name = "add\n[[cases]\n'),
    "spec: binary": lambda t: _spec(t, BINARY),
    "spec: empty": lambda t: _spec(t, ""),
    "spec: seed not an integer": lambda t: _spec(t, SPEC.replace("seed = 3", 'seed = "three"')),
    "spec: cases not tables": lambda t: _spec(t, 'reference = "reference.py"\ncases = [1, 2]\n'),
    "spec: inputs not a list": lambda t: _spec(t, 'reference = "reference.py"\n[[cases]]\ninputs = "x"\n'),
    "spec: args not a list": lambda t: _spec(t, SPEC.replace('id = "fp16-multicore"', 'id = "a"\nargs = 3')),
    "spec: shape a string": lambda t: _spec(t, SPEC.replace("shape = [64, 1024]", 'shape = "big"')),
    "spec: negative dimension": lambda t: _spec(t, SPEC.replace("shape = [64, 1024]", "shape = [-1, 1024]")),
    "spec: unknown dtype": lambda t: _spec(t, SPEC.replace('"float16"', '"float17"')),
    "spec: missing reference": lambda t: _spec(t, SPEC.replace('"reference.py"', '"missing.py"')),
    "spec: reference syntax error": lambda t: _spec(t, None, "def forward(x, y:\n    return x + y\n"),
    "spec: reference binary": lambda t: _spec(t, None, BINARY),
    # NPUKernelBench task folders
    "npukernelbench: csv binary": lambda t: _nkb(t, "test_cases.csv", BINARY),
    "npukernelbench: csv empty": lambda t: _nkb(t, "test_cases.csv", ""),
    "npukernelbench: csv header repeated": lambda t: _nkb(t, "test_cases.csv", "case_id;shape;shape\n0;[1];[2]\n"),
    "npukernelbench: csv row short": lambda t: _nkb(t, "test_cases.csv", "case_id;shape;alpha;dtype\n0;[8, 1000]\n"),
    "npukernelbench: csv missing": lambda t: _nkb(t, "test_cases.csv", None),
    "npukernelbench: module.py syntax error": lambda t: _nkb(t, "module.py", "class Model(:\n    pass\n"),
    "npukernelbench: prepare_inputs.py binary": lambda t: _nkb(t, "prepare_inputs.py", b"\x00\x01" + BINARY),
    # KernelBench files
    "kernelbench: syntax error": lambda t: _kernelbench(t, "import torch\nclass Model(torch.nn.Module:\n"),
    "kernelbench: binary": lambda t: _kernelbench(t, BINARY),
    "kernelbench: empty": lambda t: _kernelbench(t, ""),
    "kernelbench: no Model": lambda t: _kernelbench(t, "import torch\ndef get_inputs():\n    return []\n"),
    # settings
    "kgen.toml: invalid TOML": lambda t: _project_settings(t, "model = ["),
    "kgen.toml: binary": lambda t: _project_settings(t, BINARY),
    "kgen.toml: wrong type": lambda t: _project_settings(t, "[model]\nurl = 3\n"),
    "kgen.toml: unknown key": lambda t: _project_settings(t, "[model]\nurll = 'x'\n"),
    "kgen.toml: section not a table": lambda t: _project_settings(t, "agent = 3\n"),
    "user config: invalid TOML": lambda t: _user_config(t, "[agent\n"),
    "user config: binary": lambda t: _user_config(t, BINARY),
    "env: KGEN_SAMPLES not a number": lambda t: (["runs"], {"KGEN_SAMPLES": "many"}),
    # run folders
    "run folder: request.json cut short": lambda t: _run_folder(t, request='{"task": "/x", "outp'),
    "run folder: request.json binary": lambda t: _run_folder(t, request=BINARY),
    "run folder: request.json not an object": lambda t: _run_folder(t, request="[1, 2]"),
    "run folder: checkpoints not a database": lambda t: _run_folder(t, checkpoints=b"SQLite format 3\x00" + BINARY),
    "run folder: checkpoints cut short": lambda t: _run_folder(t, checkpoints=_damaged_sqlite()),
}


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", list(CASES))
def test_malformed_input_is_one_clear_line_exit_2(case, tmp_path):
    got = CASES[case](tmp_path)
    argv, extra = got if isinstance(got, tuple) else (got, {})
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGEN_")}
    env.update({"KGEN_DATA_DIR": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                "KGEN_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT), **extra})
    before = _tree(tmp_path)
    r = subprocess.run([sys.executable, "-m", "assistant.cli", *argv], cwd=tmp_path, env=env, capture_output=True,
                       text=True, errors="replace", timeout=120)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    traceback = "Traceback (most recent call last)" in r.stderr + r.stdout
    clear = len(lines) == 1 and lines[0].startswith("kgen: error: ")
    RESULTS.append((case, r.returncode, clear, traceback))
    assert not traceback, r.stderr[-2000:]
    assert r.returncode == 2, (r.returncode, r.stderr[-1000:])
    assert clear, r.stderr
    # the message names the culprit: the file (or the variable) it read
    assert any(s in lines[0] for s in ("kgen-task.toml", "reference.py", "missing.py", ".csv", "module.py",
                                       "prepare_inputs.py", "model.py", "kgen.toml", "config.toml", "KGEN_SAMPLES",
                                       "request.json", "checkpoints.sqlite")), lines[0]
    # nothing lost: every file the user had is still there, unchanged (kgen may add its own, e.g. data/)
    after = _tree(tmp_path)
    assert {k: v for k, v in after.items() if k in before} == before


def test_figures():
    """Prints the figures of the cases above (run with -s to see them)."""
    if not RESULTS:
        pytest.skip("run with the parametrized cases")
    codes: dict[int, int] = {}
    for _, rc, _, _ in RESULTS:
        codes[rc] = codes.get(rc, 0) + 1
    print(f"\nmalformed_inputs: {len(RESULTS)} inputs, {sum(1 for r in RESULTS if r[2])} one-line messages, "
          f"{sum(1 for r in RESULTS if r[3])} tracebacks, exit codes {dict(sorted(codes.items()))}")
