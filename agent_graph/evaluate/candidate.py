"""One candidate, inside its isolated child: generate its project, then compile -> correctness on every
case -> performance (the figures are kept only for a correct candidate).

    python -m agent_graph.evaluate.candidate JOB.json RESULT.json

Generators: ``offline`` (the agent with the offline drafter), ``model`` (the agent with its model and
repair loop; one agent run per sample, temperature from the model settings), ``golden`` (the task's own
answer project), ``projects`` (DIR/<task name>: an existing op project). The result is written to
RESULT.json (agent_graph.evaluate.types.CandidateResult); the parent (isolate.py) reads it back.
"""
from __future__ import annotations

import json
import math
import sys
import tempfile
import time
from pathlib import Path

from agent_graph import api
from agent_graph.evaluate.errors import classify_build, classify_cases
from agent_graph.evaluate.types import CandidateJob, CandidateResult
from agent_graph.settings import AgentSettings, ModelSettings, configure, load_settings
from bench_bridge.api import BenchError, BenchOptions, bench

MESSAGE_CHARS = 300


def evaluate(job: CandidateJob) -> CandidateResult:
    t0 = time.monotonic()
    res = _result(job, outcome="failed", stage="generate")
    try:
        if job.generator in ("golden", "golden-ref"):
            res = _bench_project(job, res, job.task.golden, "the task has no golden answer (answer/0)")
        elif job.generator == "projects":
            res = _bench_project(job, res, _projects_candidate(job), f"no project for {job.task.name} in {job.projects_dir}")
        elif job.generator in ("offline", "model"):
            res = _agent_candidate(job, res)
        else:
            res.message = f"unknown generator {job.generator!r}"
    except BenchError as e:      # the harness could not test the project (its reference did not run, ...)
        res.stage, res.error_class, res.message = "compile", "harness", _short(str(e))
    res.seconds = round(time.monotonic() - t0, 3)
    return res


def _result(job: CandidateJob, **kw) -> CandidateResult:
    t = job.task
    return CandidateResult(task=t.name, sample=job.sample, generator=job.generator, level=t.level, category=t.category,
                           cases_total=t.cases, **kw)


def _projects_candidate(job: CandidateJob) -> str | None:
    base = Path(job.projects_dir or ".")
    leaf = job.task.name.rsplit("/", 1)[-1]
    for p in (base / job.task.name, base / leaf, base / Path(job.task.path).stem):
        if (p / "op_host").is_dir():
            return str(p)
    return None


def _bench_project(job: CandidateJob, res: CandidateResult, project: str | None, missing: str) -> CandidateResult:
    if project is None:
        res.outcome = "skipped" if job.generator in ("golden", "golden-ref") else "failed"
        res.message = missing
        return res
    with tempfile.TemporaryDirectory(prefix="kgen-eval-art-") as art:
        opts = BenchOptions(backend=job.backend, project=Path(project), timeout=job.limits.run_timeout, profile=job.perf,
                            artifacts_dir=Path(art))
        rep = bench(job.task.path, opts).to_dict()
    res.project = project
    return from_report(res, rep, job.golden_us)


def _agent_candidate(job: CandidateJob, res: CandidateResult) -> CandidateResult:
    model = ModelSettings(**job.model) if job.generator == "model" else ModelSettings(url=None)
    with tempfile.TemporaryDirectory(prefix="kgen-eval-agent-") as tmp:
        data_dir = Path(job.keep_runs) if job.keep_runs else Path(tmp) / "data"
        agent = AgentSettings(**{**job.agent, "samples": 1, "backend": job.backend, "profile": True,
                                 "run_timeout": job.limits.run_timeout, "data_dir": data_dir})
        out = api.run(api.Request(task=job.task.path, output=Path(tmp) / "out"), model, agent)
    res.run_id = out.run_id if job.keep_runs else None
    if out.report is None:
        res.outcome = "failed" if out.status != "error" else "crashed"
        res.message = _short(out.message or out.status)
        return res
    return from_report(res, out.report, job.golden_us)


def from_report(res: CandidateResult, rep: dict, golden_us: float | None = None) -> CandidateResult:
    """A bench report (bench_bridge.report.BenchReport dict) read into the candidate's stages."""
    res.outcome = "ok"
    res.compiled = bool(rep.get("compiled"))
    cases = rep.get("cases") or []
    if not res.compiled:
        res.stage = "compile"
        diags = rep.get("build_diagnostics") or []
        res.error_class, counts = classify_build(diags)
        errors = [d for d in diags if d.get("severity", "error") == "error"]
        first = errors[0] if errors else {}
        res.diagnostics = {"errors": len(errors), "classes": counts,
                           "first": _short(f"{first.get('file', '')}:{first.get('line', 0)}: {first.get('message', '')}")
                           if first else _short(rep.get("message", ""))}
        res.message = _short(rep.get("message") or res.diagnostics["first"])
        return res
    res.cases_total = max(res.cases_total, len(cases))
    res.cases_passed = sum(c.get("status") == "pass" for c in cases)
    res.correct = bool(rep.get("correct"))
    res.cases = [_case(c, res.correct) for c in cases]
    if not res.correct:
        res.stage = "correctness"
        res.error_class = classify_cases(cases)
        bad = next((c for c in cases if c.get("status") != "pass"), {})
        res.message = _short(f"case {bad.get('case_id')}: {bad.get('message', '')}" if bad else rep.get("message", ""))
        res.diagnostics = {"errors": sum(c.get("status") == "error" for c in cases),
                           "classes": {res.error_class: len(cases) - res.cases_passed}, "first": res.message}
        return res
    res.stage = "performance"
    times = [c["modelled_us"] for c in res.cases if c.get("modelled_us")]
    res.modelled_us = round(sum(times), 4) if times and len(times) == len(res.cases) else None
    speedups = [c["speedup_vs_eager"] for c in res.cases if c.get("speedup_vs_eager")]
    res.speedup_vs_eager = round(math.exp(sum(map(math.log, speedups)) / len(speedups)), 4) if speedups else None
    if golden_us and res.modelled_us:
        res.golden_us, res.speedup_vs_golden = golden_us, round(golden_us / res.modelled_us, 4)
    return res


def _case(c: dict, keep_perf: bool) -> dict:
    perf = c.get("performance") or {}
    out = {"case_id": str(c.get("case_id")), "status": c.get("status")}
    if c.get("status") != "pass":
        out["message"] = _short(c.get("message", ""))
    if keep_perf and perf:
        out["modelled_us"] = perf.get("modelled_us")
        out["speedup_vs_eager"] = perf.get("speedup_vs_eager")
    return out


def _short(s: str) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= MESSAGE_CHARS else s[:MESSAGE_CHARS - 1] + "…"


def main(argv: list[str]) -> int:
    # a candidate's process is a front end of its own: its settings come from the env its parent built
    job = CandidateJob.from_dict(json.loads(Path(argv[0]).read_text()))
    # the evaluation's SoC (kgen eval --soc, recorded in its run.json) wins over the inherited setting
    configure(load_settings(cwd=Path(argv[0]).parent, overrides={"bench.soc": job.soc}))
    res = evaluate(job)
    tmp = Path(argv[1] + ".part")
    tmp.write_text(json.dumps(res.to_dict()))
    tmp.replace(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
