"""Checkpointed runs: a run killed mid-graph, cancelled, or stopped by a model error continues from its
last completed node with resume() / ``kgen generate --resume`` and reaches the same verified result."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from agent_graph import api
from agent_graph.events import NodeStarted
from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.agent_helpers import run_agent, settings
from tests.agent_graph.openai_server import ScriptedOpenAI

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "tasks" / "add" / "kgen-task.toml"


def _events(run_dir: Path) -> list[dict]:
    p = run_dir / "events.jsonl"
    out = []
    for line in (p.read_text().splitlines() if p.exists() else []):
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


@pytest.mark.slow
def test_killed_run_resumes_to_the_same_verified_result(tmp_path):
    env = {**os.environ, "KGEN_DATA_DIR": str(tmp_path / "data")}
    out_dir = tmp_path / "out"
    cmd = [sys.executable, "-m", "assistant.cli", "generate", str(ADD), "--offline", "-o", str(out_dir)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    runs = tmp_path / "data" / "runs"
    run_dir = None
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            dirs = list(runs.iterdir()) if runs.is_dir() else []
            if dirs and any(e["kind"] == "node_started" and e["node"] == "build" for e in _events(dirs[0])):
                run_dir = dirs[0]
                break
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)      # the generate process and its compilers, mid-graph
        proc.wait(30)
    assert run_dir is not None, "the run never reached the build node"
    before = _events(run_dir)
    assert not any(e["kind"] == "run_finished" for e in before)
    run_id = run_dir.name
    listed = {r.run_id: r.status for r in api.list_runs(settings(tmp_path, None)[1])}
    assert listed[run_id] == "interrupted"

    r = subprocess.run([sys.executable, "-m", "assistant.cli", "generate", "--resume", run_id, "--json"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads(r.stdout)
    assert report["correct"] and [c["status"] for c in report["cases"]] == ["pass", "pass"]
    after = _events(run_dir)[len(before):]
    assert after[0]["kind"] == "run_started" and after[0]["resumed"] is True
    resumed_nodes = [e["node"] for e in after if e["kind"] == "node_started"]
    # the nodes that had completed are not run again; the one that was cut off is
    assert resumed_nodes[0] == "build" and not {"understand", "plan", "draft"} & set(resumed_nodes)
    assert after[-1]["kind"] == "run_finished" and after[-1]["status"] == "verified"
    # the same project as the draft wrote before the kill
    drafted = next(e for e in before if e["kind"] == "files_written")["files"]
    for rel, text in drafted.items():
        assert (out_dir / rel).read_text() == text
    assert json.loads((out_dir / "report.json").read_text())["correct"] is True


@pytest.mark.slow
def test_cancelled_run_is_resumable(tmp_path):
    model, agent = settings(tmp_path, None)
    cancel = threading.Event()
    seen = []

    def on_event(e):
        seen.append(e)
        if isinstance(e, NodeStarted) and e.node == "build":
            cancel.set()

    out = api.run(api.Request(task=str(ADD), output=tmp_path / "out"), model, agent, on_event=on_event, cancel=cancel)
    assert out.status == "cancelled" and "--resume " + out.run_id in out.message
    assert seen[-1].kind == "run_finished" and seen[-1].status == "cancelled"
    assert not any(e.kind == "case_result" for e in seen)         # stopped before verifying
    again = []
    res = api.resume(out.run_id, model, agent, on_event=again.append)
    assert res.status == "verified" and res.report["correct"]
    assert again[0].kind == "run_started" and again[0].resumed
    assert "draft" not in [e.node for e in again if e.kind == "node_started"]
    # resuming a finished run does nothing more and reports the same outcome
    done = []
    res2 = api.resume(out.run_id, model, agent, on_event=done.append)
    assert res2.status == "verified" and [e.kind for e in done] == ["run_started", "run_finished"]


@pytest.mark.slow
def test_run_stopped_by_a_model_timeout_resumes_when_the_server_answers(tmp_path):
    with ScriptedOpenAI([{"text": sk.reply(sk.GOOD), "delay": 6.0}]) as srv:
        first = run_agent(tmp_path, srv.url, model_timeout=1.0)
        assert first.outcome.status == "error"
        srv.add(sk.reply(sk.GOOD))
        model, agent = settings(tmp_path, srv.url, model_timeout=30.0)
        events = []
        res = api.resume(first.outcome.run_id, model, agent, on_event=events.append)
    assert res.status == "verified", res.message
    assert [e.node for e in events if e.kind == "node_started"][0] == "draft"
    assert (res.project / f"op_kernel/{sk.OP}.cpp").read_text() == sk.GOOD[f"op_kernel/{sk.OP}.cpp"]


def test_resume_of_an_unknown_run_is_a_clear_error(tmp_path):
    model, agent = settings(tmp_path, None)
    res = api.resume("no-such-run", model, agent)
    assert res.status == "error" and "no run no-such-run" in res.message


def test_cancel_while_the_model_streams(tmp_path):
    slow = {"text": sk.reply(sk.GOOD), "chunk_delay": 0.05}        # about a minute of streaming
    with ScriptedOpenAI([slow]) as srv:
        model, agent = settings(tmp_path, srv.url)
        cancel = threading.Event()
        seen = []

        def on_event(e):
            seen.append(e)
            if e.kind == "token":
                cancel.set()

        t0 = time.monotonic()
        out = api.run(api.Request(task=str(sk.TASK), output=tmp_path / "o"), model, agent, on_event=on_event,
                      cancel=cancel)
        took = time.monotonic() - t0
    assert out.status == "cancelled" and took < 20
    assert seen[-1].kind == "run_finished" and seen[-1].status == "cancelled"
    assert not (tmp_path / "o").exists()
