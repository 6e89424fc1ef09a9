"""kgen eval end to end on a six-task suite mixing the three task formats (tests/data/eval/suite6.txt),
with the offline drafter: a local process pool, the same run interrupted (Ctrl-C, then kill -9) and
resumed (the identical summary), and a real local Ray instance on two of the tasks (the same rows)."""
from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests.agent_graph.evaluate.helpers import SUITE6, kgen, popen, results, summary


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("eval-pool")
    r = kgen(tmp, "eval", str(SUITE6), "--jobs", "2", "-o", str(tmp / "out"))
    assert r.returncode == 0, r.stderr
    assert "summary:" in r.stdout and "eval: 8/8 candidates" in r.stderr
    return tmp / "out"


def test_pool_scores_the_mixed_suite(baseline):
    s = summary(baseline)
    rows = {r["task"]: r for r in s["per_task"]}
    assert s["tasks"] == 6 and s["candidates"] == 6
    assert {t for t, r in rows.items() if r["correct"]} == {"kernelbench_add", "kernelbench_relu", "npukb_scaled_add",
                                                            "relu", "spec_scaled_add"}
    assert rows["npukb_nonzero"]["stage"] == "generate" and rows["npukb_nonzero"]["score"] == 0
    assert rows["relu"]["cases"] == 3 and rows["relu"]["score"] == 100
    # the two tasks with a golden answer were timed as T_ref, and the drafter's kernels compared with it
    assert s["metrics"]["tasks_with_golden_time"] == 2 and rows["npukb_scaled_add"]["speedup_vs_golden"] > 0
    assert s["metrics"]["correct@k"] == pytest.approx(5 / 6, abs=1e-4) and s["metrics"]["score"] == pytest.approx(83.33)
    lines = results(baseline)
    assert len(lines) == 8 and {ln["sample"] for ln in lines} == {0, -1}
    for ln in lines:
        assert ln["stage"] in ("generate", "compile", "correctness", "performance") and ln["seconds"] > 0
    assert (baseline / "speedup.png").read_bytes()[:4] == b"\x89PNG"
    md = (baseline / "summary.md").read_text()
    assert "![speedup](speedup.png)" in md and "| npukb_scaled_add | pass | 3/3 |" in md


def _wait_lines(path: Path, n: int, proc, limit: float = 300) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if path.is_file() and len(path.read_text().splitlines()) >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    raise AssertionError(f"{path}: fewer than {n} lines after {limit} s")


def test_interrupted_then_killed_run_resumes_to_the_same_summary(baseline, tmp_path):
    out = tmp_path / "out"
    args = ("eval", str(SUITE6), "--jobs", "1", "-o", str(out))
    p = popen(tmp_path, *args)
    _wait_lines(out / "results.jsonl", 1, p)
    p.send_signal(signal.SIGINT)                               # Ctrl-C: stops, the results file intact
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    kept = results(out)
    assert kept and not (out / "summary.json").exists()
    p = popen(tmp_path, *args)                                 # re-run into the same -o: continues ...
    _wait_lines(out / "results.jsonl", len(kept) + 1, p)
    os.kill(p.pid, signal.SIGKILL)                             # ... and is killed outright
    p.communicate(timeout=60)
    with open(out / "results.jsonl", "a") as f:
        f.write('{"task": "relu", "sample": 0, "outc')        # as if killed in the middle of a line
    r = kgen(tmp_path, "eval", "--resume", str(out), "--jobs", "2")
    assert r.returncode == 0, r.stderr
    assert "from the checkpoint" in r.stderr
    assert summary(out) == summary(baseline)
    assert (out / "summary.md").read_text() == (baseline / "summary.md").read_text()
    assert len({(ln["task"], ln["sample"]) for ln in results(out)}) == 8


def test_a_different_run_into_the_same_folder_is_refused(baseline, tmp_path):
    r = kgen(tmp_path, "eval", str(SUITE6), "--generator", "golden", "-o", str(baseline))
    assert r.returncode == 2 and "holds another evaluation (different generator)" in r.stderr


def test_ray_gives_the_same_summary_as_the_pool(baseline, tmp_path):
    pytest.importorskip("ray")
    # two of the six tasks (one verified, one refused): the same rows as the pool's run of the whole suite
    r = kgen(tmp_path, "eval", str(SUITE6), "--name", "relu", "--name", "npukb_nonzero", "--ray", "local",
             "--jobs", "2", "-o", str(tmp_path / "out"), RAY_USAGE_STATS_ENABLED="0")
    assert r.returncode == 0, r.stderr[-3000:]
    rows = {t["task"]: t for t in summary(tmp_path / "out")["per_task"]}
    assert set(rows) == {"relu", "npukb_nonzero"}
    assert [t for t in summary(baseline)["per_task"] if t["task"] in rows] == list(rows.values())
    assert json.loads((tmp_path / "out" / "run.json").read_text())["request"]["generator"] == "offline"
