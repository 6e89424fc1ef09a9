"""``kgen eval --no-perf``: correctness only. The candidates are benched without an instruction trace or a
modelled time (the performance model of a large case takes minutes: NPUKernelBench level 2 has cases of
64 Mi elements), no golden answer is timed for T_ref, and run.json records the setting, so the same folder
with the performance stage is another evaluation; a run recorded before the flag existed is one with it."""
from __future__ import annotations

import json

import pytest

from tests.agent_graph.evaluate.helpers import DATA, kgen, results


def test_no_perf_checks_every_case_and_models_nothing(tmp_path):
    out = tmp_path / "out"
    r = kgen(tmp_path, "eval", str(DATA / "tasks" / "npukb_scaled_add"), "--generator", "golden", "--no-perf", "-o", str(out))
    assert r.returncode == 0, r.stderr
    (row,) = results(out)
    assert row["correct"] and row["cases_passed"] == row["cases_total"] == 3
    assert row["modelled_us"] is None and all("modelled_us" not in c for c in row["cases"])
    assert json.loads((out / "run.json").read_text())["request"]["perf"] is False
    r = kgen(tmp_path, "eval", str(DATA / "tasks" / "npukb_scaled_add"), "--generator", "golden", "-o", str(out))
    assert r.returncode == 2 and "different perf" in r.stderr


def test_jobs_carry_the_setting_and_old_runs_default_to_perf(tmp_path):
    from agent_graph.evaluate.engine import _open_run, make_jobs, request_from_run
    from agent_graph.evaluate.suite import discover
    from agent_graph.evaluate.types import CandidateJob, EvalRequest
    from agent_graph.settings import AgentSettings, ModelSettings

    suite = DATA / "tasks" / "npukb_scaled_add"
    req = EvalRequest(suite=suite, generator="offline", output=tmp_path / "run", perf=False)
    jobs = make_jobs(req, discover(suite), ModelSettings(), AgentSettings())
    # no golden-ref job: T_ref is a modelled time
    assert [j.generator for j in jobs] == ["offline"] and not jobs[0].perf
    assert CandidateJob.from_dict(json.loads(json.dumps(jobs[0].to_dict()))).perf is False
    old = tmp_path / "old"
    _open_run(EvalRequest(suite=suite, generator="golden", output=old))
    data = json.loads((old / "run.json").read_text())
    del data["request"]["perf"]
    (old / "run.json").write_text(json.dumps(data))
    _open_run(EvalRequest(suite=suite, generator="golden", output=old))
    assert request_from_run(old).perf is True


@pytest.mark.parametrize("flag", ["--no-perf"])
def test_help_names_the_flag(tmp_path, flag):
    r = kgen(tmp_path, "eval", "--help")
    assert r.returncode == 0 and flag in r.stdout
