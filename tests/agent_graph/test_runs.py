"""Run ids, run folders and the run list (api.list_runs, ``kgen runs``)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from agent_graph import api
from agent_graph.events import CaseResult, Note, RunFinished, RunStarted
from agent_graph.runs import RunFolder, new_run_id, round_dir_name
from agent_graph.settings import AgentSettings

ROOT = Path(__file__).resolve().parents[2]


def test_run_ids_are_sortable_readable_and_unique():
    ids = {new_run_id("NPUKernelBench/level1 AddCustom!") for _ in range(50)}
    assert len(ids) == 50
    one = next(iter(ids))
    assert re.fullmatch(r"\d{8}-\d{6}-npukernelbench-level1-ad-[0-9a-f]{6}", one), one   # label cut at 24
    assert one[:8] == time.strftime("%Y%m%d")
    assert new_run_id("???").split("-")[2] == "run"
    assert new_run_id("a" * 23 + "/b").split("-")[2] == "a" * 23    # no dangling dash


def test_round_folders():
    assert round_dir_name(0, 0) == "0" and round_dir_name(3, 0) == "3" and round_dir_name(2, 1) == "2-s1"


def _folder(tmp_path: Path, run_id: str, task: str, started_offset: float = 0.0) -> RunFolder:
    f = RunFolder(tmp_path, run_id)
    f.create({"task": task}, task, "offline drafter")
    info = json.loads((f.dir / "run.json").read_text())
    info["started"] += started_offset
    (f.dir / "run.json").write_text(json.dumps(info))
    return f


def test_events_are_appended_and_status_tracked(tmp_path):
    f = _folder(tmp_path, "r1", "add")
    f.record(RunStarted("r1", str(f.dir), "m @ http://x/v1", "add"))
    f.record(CaseResult(1, 2, "a", "pass"))
    f.record(Note("hello", "warning"))
    assert f.info().status == "running" and f.info().model == "m @ http://x/v1"
    (f.dir / "events.jsonl").open("a").write('{"kind": "case_res')     # a line cut short by a kill
    f.record(RunFinished("r1", "failed", "1/2 cases correct"))
    kinds = [e["kind"] for e in f.events()]
    assert kinds == ["run_started", "case_result", "note", "run_finished"]
    assert f.info().status == "failed"


def test_list_runs_newest_first_with_interrupted_runs(tmp_path):
    old = _folder(tmp_path, "old", "add", started_offset=-100)
    old.set_status("verified")
    dead = _folder(tmp_path, "dead", "softmax", started_offset=-50)
    # a run whose process is gone while it was "running": a pid no process has
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    (dead.dir / "pid").write_text(str(p.pid))
    live = _folder(tmp_path, "live", "gelu")
    (live.dir / "pid").write_text(str(os.getpid()))
    (tmp_path / "runs" / "junk").mkdir()                 # not a run: ignored
    runs = api.list_runs(AgentSettings(data_dir=tmp_path))
    assert [(r.run_id, r.status, r.task) for r in runs] == [("live", "running", "gelu"), ("dead", "interrupted", "softmax"),
                                                             ("old", "verified", "add")]
    assert api.list_runs(AgentSettings(data_dir=tmp_path / "nothing")) == []


def _kgen(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "KGEN_DATA_DIR": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


def test_kgen_runs_lists_the_runs(tmp_path):
    r = _kgen(tmp_path, "runs")
    assert r.returncode == 0 and "no runs yet" in r.stdout
    _folder(tmp_path, "20260101-000000-add-abcd", "examples/tasks/add/kgen-task.toml").set_status("error")
    r = _kgen(tmp_path, "runs")
    assert r.returncode == 0, r.stderr
    row = next(x for x in r.stdout.splitlines() if x.startswith("20260101-000000-add-abcd"))
    assert "error" in row and "offline drafter" in row and "examples/tasks/add/kgen-task.toml" in row
    assert "kgen generate --resume RUN_ID" in r.stdout
    data = json.loads(_kgen(tmp_path, "runs", "--json").stdout)
    assert data[0]["run_id"] == "20260101-000000-add-abcd" and data[0]["status"] == "error"
