"""``kgen bench``: build, run and verify a kernel against its reference, case by case.

PATH can be an NPUKernelBench task dir (its ``answer/0`` or ``--project``), a KernelBench reference
``.py`` or a kgen spec with ``--project`` (or a spec beside its project), or a kernel-launch program
(``.asc``/``.cpp`` with its own host ``main``: built and run in a fresh work folder, its verdict the one it
prints, ``bench_bridge.verify.program_verdict``: exit 0 without a PASS line is "unverified", never correct).
The PyTorch reference runs in a child process (``bench_bridge.tasks.worker``); every build and run
of kernel code happens in a child process with limits (``bench_bridge.sim``).
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench_bridge import perf
from bench_bridge.artifacts import ArtifactWriter
from bench_bridge.bench_case import CaseRunner
from bench_bridge.events import BenchEventSink, PhaseStarted, ignore
from bench_bridge.report import Backend, BenchReport, CaseReport
from bench_bridge.sandbox import own_python_env
from bench_bridge.sim import build as sim_build
from bench_bridge.sim import run as sim_run
from bench_bridge.tasks import LAUNCH_SUFFIXES, Task, TaskError, load_task
from bench_bridge.verify import program_verdict

UNVERIFIED_MESSAGE = ("ran, nothing verified: the program exited 0 but printed no PASS/FAIL verdict and has no reference "
                      "(docs/report-schema.md, 'A program's own verdict')")


class BenchError(Exception):
    """A user mistake that stops the bench as a whole (message is one clear sentence)."""


@dataclass
class BenchOptions:
    case: str | None = None       # only this case id (or position)
    backend: Backend = "sim"
    project: Path | None = None
    timeout: float = 120.0
    reference_timeout: float = 300.0
    profile: bool = False         # model each case's time from its instruction trace (bench_bridge.perf)
    artifacts_dir: Path | None = None  # where a profile's trace + timeline PNG go (default: a run folder in the cache)


def bench(path: str | Path, opts: BenchOptions | None = None, on_event: BenchEventSink | None = None) -> BenchReport:
    """Bench the kernel at ``path`` (a task, or a kernel-launch program) and report every case.

    ``on_event`` gets a typed progress event (:mod:`bench_bridge.events`) as each step starts;
    ``str(event)`` is the line to show."""
    opts = opts or BenchOptions()
    say = on_event or ignore
    p = Path(path)
    t0 = time.monotonic()
    if p.is_file() and p.suffix in LAUNCH_SUFFIXES:
        rep = _bench_launch_program(p, opts, say)
    else:
        try:
            task = load_task(p)
        except TaskError as e:
            raise BenchError(str(e)) from e
        rep = _bench_task(task, p, opts, say)
    rep.seconds = time.monotonic() - t0
    return rep


# ---- kernel-launch programs ------------------------------------------------------------------

_MAIN = re.compile(r"\bmain\s*\(")


def _bench_launch_program(p: Path, opts: BenchOptions, say: BenchEventSink) -> BenchReport:
    if not _MAIN.search(p.read_text(errors="replace")):
        # the linker's "undefined reference to `main'" says nothing a user can act on
        raise BenchError(f"{p}: no host main() (a kernel-launch program launches its kernel from main with "
                         "name<<<blocks, nullptr, stream>>>(...); an op project is benched by its folder or task)")
    say(PhaseStarted("build", f"building {p.name}"))
    b = sim_build([p])
    rep = BenchReport(task=p.stem, task_format="kernel-launch", path=str(p.resolve()), backend=opts.backend, project=None,
                      compiled=b.ok, correct=False, build_diagnostics=[d.to_dict() for d in b.diagnostics])
    if not b.ok:
        rep.message = f"build failed with {len(b.errors)} error(s)"
        return rep
    arts = ArtifactWriter(rep.task, opts.artifacts_dir, say)
    arts.set_build_dir(b.binary)
    say(PhaseStarted("run", f"running {p.name}"))
    work = Path(tempfile.mkdtemp(prefix="kgen-launch-"))   # its work folder: the only place it may write
    try:
        r = sim_run(b.binary, cwd=work, timeout=opts.timeout, trace=opts.profile, reads=[p.parent.resolve()])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    errors = [d for d in r.diagnostics if d.severity == "error"]
    if errors or r.timed_out or r.returncode < 0:
        status = "error"
    else:
        status = program_verdict(r.returncode, r.stdout)
    last = (r.stdout.strip().splitlines() or [""])[-1]
    msg = errors[0].format() if errors else (f"exit status {r.returncode}: {last}" if r.returncode else last)
    if status == "unverified":
        msg = UNVERIFIED_MESSAGE
    case = CaseReport(case_id="0", params={}, input_shapes=[], dtypes=[], status=status, message=msg,
                      checker="program", seconds=r.seconds, diagnostics=[d.to_dict() for d in r.diagnostics])
    if opts.profile and r.trace_file and r.trace_file.exists():
        modelled = perf.profile(r.trace_file)
        case.performance = modelled.to_dict()
        rep.performance = summarize_performance([case])
        arts.add_case(case.case_id, modelled)
    rep.artifacts = arts.artifacts
    rep.cases.append(case)
    rep.correct = status == "pass"
    return rep


# ---- tasks with an op project ----------------------------------------------------------------

def _prepare_references(task: Task, work: Path, opts: BenchOptions, say: BenchEventSink) -> list[dict]:
    say(PhaseStarted("reference", f"running the PyTorch reference for {len(task.cases)} case(s)"))
    (work / "task.json").write_text(json.dumps(task.to_json_dict()))
    extra = ["--profile"] if opts.profile else []
    r = sim_run(Path(sys.executable), ["-m", "bench_bridge.tasks.worker", "prepare", str(work / "task.json"), str(work), *extra],
                cwd=work, timeout=opts.reference_timeout, memory_mb=16384, reads=task.files(), env=own_python_env())
    cases_file = work / "cases.json"
    if r.returncode != 0 or not cases_file.exists():
        detail = ""
        try:
            detail = json.loads(r.stdout.strip().splitlines()[-1]).get("error", "")
        except (ValueError, IndexError, AttributeError):
            detail = (r.stderr.strip().splitlines() or ["the reference process failed"])[-1]
        if r.timed_out:
            detail = f"the reference did not finish within {opts.reference_timeout:g} s"
        raise BenchError(f"cannot run the reference {task.reference}: {detail}")
    return json.loads(cases_file.read_text())


def _select(entries: list[dict], case: str | None) -> list[dict]:
    if case is None:
        return entries
    chosen = [e for e in entries if e["id"] == case] or [e for e in entries if str(e["index"]) == case]
    if not chosen:
        raise BenchError(f"no case {case!r}: the task has cases {', '.join(e['id'] for e in entries)}")
    return chosen


def _bench_task(task: Task, given: Path, opts: BenchOptions, say: BenchEventSink) -> BenchReport:
    project = opts.project or task.project
    if project is None:
        raise BenchError(f"{given}: no op project to bench (the task has no answer/0 and no project): pass --project DIR")
    project = Path(project).resolve()
    if not (project / "op_host").is_dir() or not (project / "op_kernel").is_dir():
        raise BenchError(f"{project}: not an op project (expected op_host/ and op_kernel/)")
    if opts.backend != "sim":
        raise BenchError("backend 'npu' is handled by bench_npu()")
    work = Path(tempfile.mkdtemp(prefix="kgen-bench-"))
    try:   # the reference tensors of every case (GBs for large tasks) go once the report is made
        return _bench_cases(task, given, project, work, opts, say)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _bench_cases(task: Task, given: Path, project: Path, work: Path, opts: BenchOptions, say: BenchEventSink) -> BenchReport:
    entries = _select(_prepare_references(task, work, opts, say), opts.case)
    rep = BenchReport(task=task.name, task_format=task.format, path=str(given.resolve()), backend=opts.backend,
                      project=str(project), compiled=True, correct=False)
    runner = CaseRunner(task, project, work, opts.timeout, say, profile=opts.profile)
    arts = ArtifactWriter(task.name, opts.artifacts_dir, say)
    for i, e in enumerate(entries, 1):
        rep.cases.append(runner.run_case(e, i, len(entries)))
        arts.add_case(rep.cases[-1].case_id, runner.last_perf)
        arts.set_build_dir(next((b.binary for b in runner.builds.values()), None))
        if runner.build_failed:
            rep.compiled = False
            rep.build_diagnostics = [d.to_dict() for d in runner.build_diagnostics]
            rep.message = runner.build_message
            break
    rep.artifacts = arts.artifacts
    rep.correct = rep.compiled and bool(rep.cases) and all(c.status == "pass" for c in rep.cases)
    if opts.profile:
        rep.performance = summarize_performance(rep.cases)
    return rep


def summarize_performance(cases: list[CaseReport]) -> dict | None:
    """Task-level figures over the profiled cases: modelled times and the geometric-mean eager speedup."""
    perfs = [c.performance for c in cases if c.performance]
    if not perfs:
        return None
    speedups = [p["speedup_vs_eager"] for p in perfs if p.get("speedup_vs_eager")]
    geo = float(np.exp(np.mean(np.log(speedups)))) if speedups else None
    return {"source": "modelled", "soc": perfs[0].get("soc"), "cases": len(perfs),
            "modelled_us": [p["modelled_us"] for p in perfs], "bound": [p["bound"] for p in perfs],
            "geomean_speedup_vs_eager": geo}
