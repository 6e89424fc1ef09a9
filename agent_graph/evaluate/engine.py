"""``run_eval``: a suite x a generator -> candidates -> an executor -> results.jsonl -> the summary.

The output folder holds ``run.json`` (what was asked: resuming needs nothing else), ``results.jsonl``
(the checkpoint: a candidate whose line is there is not run again), ``summary.json``, ``summary.md``,
the charts, and for the model generator the agent's run folders (``agent/runs/``) the training export
reads. The summary depends only on the results, so a resumed run gives the same one.
"""
from __future__ import annotations

import dataclasses
import json
import threading
import time
from pathlib import Path
from typing import Callable

from agent_graph.evaluate.executor import LocalExecutor, RayExecutor
from agent_graph.evaluate.export import ExportCounts, export_training
from agent_graph.evaluate.isolate import sweep_stale
from agent_graph.evaluate.metrics import REF_SAMPLE, summarize
from agent_graph.evaluate.report import write_summary
from agent_graph.evaluate.results import ResultsFile
from agent_graph.evaluate.suite import discover
from agent_graph.evaluate.types import (GENERATORS, CandidateJob, CandidateResult, EvalError, EvalRequest, EvalSummary,
                                        Limits, Progress, SuiteTask)
from agent_graph.settings import AgentSettings, ModelSettings

RUN_FILE = "run.json"
FINGERPRINT = ("suite", "generator", "k", "backend", "levels", "categories", "names", "vs_golden", "soc", "perf")


_DEFAULTS = {f.name: f.default for f in dataclasses.fields(EvalRequest) if f.name in FINGERPRINT}


def validate(req: EvalRequest) -> None:
    if req.generator_kind not in GENERATORS:
        raise EvalError(f"unknown generator {req.generator!r} (offline, model, golden or projects:DIR)")
    if req.generator_kind == "projects" and not (req.projects_dir and Path(req.projects_dir).is_dir()):
        raise EvalError(f"--generator projects:DIR needs an existing folder of op projects (got {req.generator!r})")
    if req.k < 1 or req.jobs < 1:
        raise EvalError("-k and --jobs must be at least 1")
    if req.backend not in ("sim", "npu"):
        raise EvalError(f"unknown backend {req.backend!r} (sim or npu)")
    if req.output.exists() and not req.output.is_dir():
        raise EvalError(f"output {req.output} exists and is not a directory")


def _fingerprint(req: EvalRequest) -> dict:
    d = {k: getattr(req, k) for k in FINGERPRINT}
    d["suite"] = str(Path(req.suite).resolve())
    return json.loads(json.dumps(d, default=str))


def request_from_run(folder: Path, **overrides) -> EvalRequest:
    """The request a run folder was made with (``--resume RUN``), with ``overrides`` (jobs, ray, export) on top."""
    p = Path(folder) / RUN_FILE
    try:
        d = json.loads(p.read_text())
    except (OSError, ValueError):
        raise EvalError(f"{folder}: not an eval run folder (no readable {RUN_FILE})") from None
    fp = d.get("request", {})
    limits = Limits(**d.get("limits", {}))
    req = EvalRequest(suite=Path(fp["suite"]), generator=fp["generator"], k=fp["k"], backend=fp["backend"],
                      levels=fp["levels"], categories=fp["categories"], names=fp["names"], vs_golden=fp["vs_golden"],
                      soc=fp.get("soc"), perf=fp.get("perf", True), output=Path(folder), limits=limits)
    return dataclasses.replace(req, **{k: v for k, v in overrides.items() if v is not None})


def _open_run(req: EvalRequest) -> None:
    req.output.mkdir(parents=True, exist_ok=True)
    p = req.output / RUN_FILE
    fp = _fingerprint(req)
    if p.is_file():
        try:
            old = json.loads(p.read_text()).get("request")
        except ValueError:
            old = None
        # a setting a run predates (--soc, --no-perf) is read as its default
        diff = ", ".join(k for k in FINGERPRINT if old is not None and old.get(k, _DEFAULTS.get(k)) != fp.get(k))
        if diff:
            raise EvalError(f"{req.output} holds another evaluation (different {diff}): use another -o, or --resume it")
        return
    tmp = p.with_suffix(".part")
    tmp.write_text(json.dumps({"schema": "kgen.eval-run/1", "request": fp, "limits": dataclasses.asdict(req.limits)},
                              indent=2) + "\n")
    tmp.replace(p)


def make_jobs(req: EvalRequest, tasks: list[SuiteTask], model: ModelSettings, agent: AgentSettings) -> list[CandidateJob]:
    kind = req.generator_kind
    samples = req.k if kind == "model" else 1          # the other generators are deterministic: one candidate
    keep = str((req.output / "agent").resolve()) if kind == "model" else None
    m = dataclasses.asdict(model)
    a = {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(agent).items()}
    jobs = []
    for t in tasks:
        for s in range(samples):
            jobs.append(CandidateJob(task=t, generator=kind, sample=s, projects_dir=req.projects_dir, backend=req.backend,
                                     limits=req.limits, model=m, agent=a, keep_runs=keep, soc=req.soc, perf=req.perf))
        if req.vs_golden and req.perf and kind != "golden" and t.golden:   # T_ref is a modelled time
            jobs.append(CandidateJob(task=t, generator="golden-ref", sample=REF_SAMPLE, backend=req.backend, limits=req.limits,
                                     soc=req.soc))
    return jobs


def run_eval(req: EvalRequest, model: ModelSettings | None = None, agent: AgentSettings | None = None,
             on_event: Callable[[Progress], None] | None = None, cancel: threading.Event | None = None) -> EvalSummary:
    """Run (or finish) the evaluation ``req``; EvalError for a user mistake. ``cancel`` stops it between
    candidates (running ones are killed; nothing they did is recorded)."""
    validate(req)
    model, agent = model or ModelSettings(), agent or AgentSettings()
    if req.generator_kind == "model" and not model.configured:
        raise EvalError("--generator model needs a model endpoint (--llm URL or the model.url setting)")
    tasks = discover(req.suite, req.levels, req.categories, req.names)
    _open_run(req)
    sweep_stale()
    cancel = cancel or threading.Event()
    store = ResultsFile(req.output)
    results = store.load()
    jobs = make_jobs(req, tasks, model, agent)
    wanted = {j.key for j in jobs}
    results = {k: v for k, v in results.items() if k in wanted}
    pending = [j for j in jobs if j.key not in results]
    executor = RayExecutor(req.ray_address, req.backend, req.jobs) if req.ray_address else LocalExecutor(req.jobs)
    t0, done0 = time.monotonic(), len(jobs) - len(pending)
    emit = on_event or (lambda _p: None)
    correct = sum(r.correct for r in results.values() if r.sample != REF_SAMPLE)
    emit(Progress(done0, len(jobs), correct, done0, 0.0, None))
    for d in executor.run(pending, cancel):
        res = CandidateResult.from_dict(d)
        store.append(res)
        results[res.key] = res
        correct += res.correct and res.sample != REF_SAMPLE
        n = len(results)
        el = time.monotonic() - t0
        eta = el / (n - done0) * (len(jobs) - n) if n > done0 else None
        emit(Progress(n, len(jobs), correct, done0, el, eta, res))
    if cancel.is_set():
        raise KeyboardInterrupt
    return finish(req, tasks, results)


def finish(req: EvalRequest, tasks: list[SuiteTask], results: dict[str, CandidateResult]) -> EvalSummary:
    s = summarize(tasks, results, req.k)
    summary = EvalSummary(suite=str(req.suite), generator=req.generator, k=req.k, backend=req.backend, tasks=len(tasks),
                          candidates=sum(1 for r in results.values() if r.sample != REF_SAMPLE), output=str(req.output),
                          **s)
    write_summary(summary, req.output)
    if req.export_training is not None:
        counts: ExportCounts = export_training([r for r in results.values() if r.sample != REF_SAMPLE],
                                               req.output / "agent" / "runs", Path(req.export_training))
        summary.metrics["training_export"] = dataclasses.asdict(counts)
    return summary
