"""The SoC is a setting of ``kgen bench`` and ``kgen eval`` (``--soc``, the ``bench.soc`` setting, ``KGEN_SOC``):
the emulated part's core counts come from bench_bridge/soc.toml (910B2: 48 vector cores, 910B4: 40), so an
answer written for a 40-vector-core part can be run as on that part. An eval records its SoC in run.json
(a resumed or continued run keeps it) and hands it to every candidate.

The team's elt_add TilingFunc spreads 16 x 1000 floats (2000 blocks of 32 bytes) over GetCoreNumAiv()
cores: ceil(2000 / 48) = 42 blocks a core -> 16000 / 336 -> 48 blocks on a 910B2; 2000 / 40 = 50 blocks a
core -> 16000 / 400 = 40 blocks on a 910B4 (worked out by hand)."""
from __future__ import annotations

import json
import pytest

from tests.bench_bridge.test_bench import PROJECTS, TASKS, kgen


@pytest.mark.parametrize("soc, blocks", [(None, 48), ("910B4", 40), ("Ascend910B4", 40)])
def test_bench_runs_the_tiling_on_the_chosen_soc(soc, blocks):
    args = ["bench", str(TASKS / "kernelbench_add.py"), "--project", str(PROJECTS / "elt_add"), "--json"]
    r = kgen(*args, *(["--soc", soc] if soc else []))
    assert r.returncode == 0, r.stderr + r.stdout[-2000:]
    (case,) = json.loads(r.stdout)["cases"]
    assert case["status"] == "pass" and case["block_dim"] == blocks


def test_an_unknown_soc_is_one_usage_error():
    r = kgen("bench", str(TASKS / "kernelbench_add.py"), "--project", str(PROJECTS / "elt_add"), "--soc", "910Z")
    assert r.returncode == 2
    assert "unknown SoC '910Z'" in r.stderr and "910B2" in r.stderr and "910B4" in r.stderr


def test_eval_records_its_soc_and_gives_it_to_every_candidate(tmp_path):
    from agent_graph.evaluate.engine import _open_run, make_jobs, request_from_run
    from agent_graph.evaluate.suite import discover
    from agent_graph.evaluate.types import CandidateJob, EvalError, EvalRequest
    from agent_graph.settings import AgentSettings, ModelSettings

    suite = TASKS / "npukb_scaled_add"
    req = EvalRequest(suite=suite, generator="golden", output=tmp_path / "run", soc="910B4")
    _open_run(req)
    recorded = json.loads((tmp_path / "run" / "run.json").read_text())["request"]
    assert recorded["soc"] == "910B4"
    assert request_from_run(tmp_path / "run").soc == "910B4"
    jobs = make_jobs(req, discover(suite), ModelSettings(), AgentSettings())
    assert jobs and all(j.soc == "910B4" for j in jobs)
    assert CandidateJob.from_dict(json.loads(json.dumps(jobs[0].to_dict()))).soc == "910B4"
    # the same folder on another SoC is another evaluation
    with pytest.raises(EvalError, match="different soc"):
        _open_run(EvalRequest(suite=suite, generator="golden", output=tmp_path / "run", soc="910B2"))
    # a run recorded before --soc existed (no "soc" key) continues as it was
    old = tmp_path / "old"
    _open_run(EvalRequest(suite=suite, generator="golden", output=old))
    data = json.loads((old / "run.json").read_text())
    del data["request"]["soc"]
    (old / "run.json").write_text(json.dumps(data))
    _open_run(EvalRequest(suite=suite, generator="golden", output=old))
    assert request_from_run(old).soc is None


def test_eval_help_and_bench_help_name_the_flag():
    for cmd in ("bench", "eval"):
        r = kgen(cmd, "--help")
        assert r.returncode == 0 and "--soc SOC" in r.stdout and "910B4" in r.stdout


def test_the_setting_refuses_unknown_socs():
    from bench_bridge.settings import BenchSettings

    assert BenchSettings(soc="Ascend910B4").soc == "910B4"
    with pytest.raises(ValueError, match="unknown SoC"):
        BenchSettings(soc="910Q")
