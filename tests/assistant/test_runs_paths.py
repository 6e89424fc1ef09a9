"""Issue 22 item 7: ``kgen runs`` shows each run's task as the absolute path the run resolved when it
started (its request.json), not the path as typed, which was relative to wherever that run was started.

The run folder is written by agent_graph's own RunFolder.create with what ``kgen generate
examples/tasks/add/kgen-task.toml`` typed in the repository records: the label as typed, the request's
task resolved. ``kgen runs`` is then run from another folder."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from agent_graph.api import RunFolder

ROOT = Path(__file__).resolve().parents[2]
TYPED = "examples/tasks/add/kgen-task.toml"


def _runs(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "KGEN_DATA_DIR": str(tmp_path / "data")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-m", "assistant.cli", "runs", *args], capture_output=True, text=True,
                          cwd=elsewhere, env={**env, "PYTHONPATH": str(ROOT)}, timeout=300)


def _record(tmp_path: Path) -> Path:
    resolved = (ROOT / TYPED).resolve()
    RunFolder(tmp_path / "data", "20261201-000000-add-abcdef").create(
        {"task": str(resolved), "words": None, "output": str(ROOT / "kgen-out" / "add"), "label": TYPED},
        TYPED, "offline drafter")
    return resolved


def test_runs_table_shows_the_resolved_task_path(tmp_path):
    resolved = _record(tmp_path)
    r = _runs(tmp_path)
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("20261201-000000-add-abcdef"))
    assert row.endswith(str(resolved)), row


def test_runs_json_has_the_resolved_task_path(tmp_path):
    resolved = _record(tmp_path)
    r = _runs(tmp_path, "--json")
    assert r.returncode == 0, r.stderr
    (run,) = json.loads(r.stdout)
    assert run["task_path"] == str(resolved)
    assert run["task"] == TYPED            # the label as typed stays (what the run was called)
