"""Candidates that crash, hang or run past their limit are results, never the end of the run; the
work folders are removed whatever happens."""
from __future__ import annotations

import shutil

from tests.agent_graph.evaluate.helpers import DATA, kgen, results, summary

GOLDEN = DATA / "tasks" / "npukb_scaled_add" / "answer" / "0"


def _project(projects, name: str, prelude: str):
    dest = projects / name
    shutil.copytree(GOLDEN, dest)
    kernel = next((dest / "op_kernel").glob("*.cpp"))
    text = kernel.read_text()
    marker = "__aicore__ inline void Process() {"
    assert marker in text
    kernel.write_text(text.replace(marker, marker + "\n" + prelude, 1))


def test_crashing_and_hanging_candidates_do_not_stop_the_run(tmp_path):
    projects = tmp_path / "projects"
    _project(projects, "spec_scaled_add", "        *(volatile int*)nullptr = 1;   // segfaults")
    _project(projects, "npukb_scaled_add", "        volatile int spin = 1; while (spin) {}   // never returns")
    suite = tmp_path / "suite.txt"
    suite.write_text(f"{DATA / 'tasks' / 'spec_scaled_add'}\n{DATA / 'tasks' / 'npukb_scaled_add'}\n")
    work_tmp = tmp_path / "tmp"
    work_tmp.mkdir()
    out = tmp_path / "out"
    r = kgen(tmp_path, "eval", str(suite), "--generator", f"projects:{projects}", "--timeout", "3", "--no-vs-golden",
             "--jobs", "2", "-o", str(out), TMPDIR=str(work_tmp))
    assert r.returncode == 0, r.stderr[-3000:]
    rows = {d["task"]: d for d in results(out)}
    crash, hang = rows["spec_scaled_add"], rows["npukb_scaled_add"]
    for d in (crash, hang):
        assert d["outcome"] == "ok" and d["compiled"] and not d["correct"] and d["stage"] == "correctness"
        assert d["cases"] and all(c["status"] == "error" for c in d["cases"])
    assert "time" in hang["message"].lower()
    assert summary(out)["metrics"]["correct"] == 0
    assert not [p for p in work_tmp.iterdir() if p.name.startswith("kgen-")]      # no work folder left behind


def test_a_candidate_past_its_time_limit_is_killed_and_recorded(tmp_path):
    out = tmp_path / "out"
    r = kgen(tmp_path, "eval", str(DATA / "tasks" / "spec_scaled_add"), "--generator", "golden",
             "--candidate-timeout", "1", "-o", str(out))
    assert r.returncode == 0, r.stderr[-3000:]
    (d,) = results(out)
    assert d["outcome"] == "timeout" and d["attempts"] == 1 and not d["correct"]
    assert "1 s limit" in d["message"] and summary(out)["per_task"][0]["score"] == 0
