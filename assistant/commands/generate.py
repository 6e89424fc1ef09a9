"""``kgen generate TASK`` (or ``--words "..."``): the agent (agent_graph.api) drafts an AscendC custom-op project for a task,
builds it, repairs it, verifies every shape case against the reference and benchmarks it.

With a model (``--llm URL`` or the ``model.url`` setting) the LangGraph agent drafts and repairs with
it; without one the offline drafter's templates are used, and the command says so. A request in
words needs a model: it writes the reference and the shape cases first, and the user confirms them
(assistant/commands/spec_confirm.py). Progress goes to
stderr (assistant/commands/agent_render.py); the report table (or ``--json``) to stdout. Exit status:
0 verified, 1 not verified (or the model failed), 2 usage error (a bad flag, or the task's own reference or input
generator fails as written), 3 unsupported, 130 interrupted.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.agent_render import ProgressPrinter
from assistant.commands.common import settings_of, usage_error
from assistant.commands.sandbox_flag import add_flag
from assistant.commands.spec_confirm import make_confirm

if TYPE_CHECKING:   # kgen --help imports this module: the tree (pydantic-settings) only once a command runs
    from agent_graph.settings import AgentSettings, ModelSettings, Settings

EXIT_CODES = {"verified": 0, "failed": 1, "error": 1, "unsupported": 3, "invalid": 2, "cancelled": 130}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="draft an op project for a task, then build, repair, verify and benchmark it")
    p.add_argument("task", metavar="TASK", nargs="?", help="NPUKernelBench task dir, KernelBench .py or kgen spec (.toml)")
    p.add_argument("--words", metavar="TEXT", help="the request in words instead of TASK (needs --llm): the model writes "
                   "the PyTorch reference and shape cases, shown for confirmation before the kernel is drafted")
    p.add_argument("--yes", action="store_true", help="with --words: use the model's reference without asking "
                   "(without a terminal the question is skipped anyway, with a note)")
    p.add_argument("--offline", action="store_true", help="use the offline drafter (templates, no model)")
    p.add_argument("--llm", metavar="URL", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (vLLM)")
    p.add_argument("--model", metavar="NAME", help="served model name (default from the settings)")
    p.add_argument("--samples", type=int, metavar="K", help="draft K candidates in parallel, keep the best verified")
    p.add_argument("--max-build-repairs", type=int, metavar="N", help="repair rounds on build errors (default 4)")
    p.add_argument("--max-correctness-repairs", type=int, metavar="N", help="repair rounds on wrong results (default 3)")
    p.add_argument("--resume", metavar="RUN_ID", help="continue an interrupted run (kgen runs lists them)")
    p.add_argument("--backend", choices=["sim"], default="sim", help="sim: CPU emulator (default)")
    p.add_argument("-o", "--output", metavar="DIR", help="where to write the project and report.json (default: ./kgen-out/<task>)")
    p.add_argument("--force", action="store_true", help="replace op sources in the output DIR that kgen did not write "
                   "(without it such a DIR is refused; what kgen wrote there before is always replaced)")
    p.add_argument("--json", action="store_true", help="print the report as JSON (schema: docs/report-schema.md)")
    p.add_argument("--profile", action="store_true", help="also model each case's time and the speedup over PyTorch eager; "
                   "each case's trace (Perfetto) and timeline picture go to the output's profile/")
    p.add_argument("--timeout", type=float, default=None, metavar="SEC", help="wall-clock limit per kernel run (default 120)")
    p.add_argument("--verbose", action="store_true", help="show the model's reply as it streams")
    add_flag(p)
    p.set_defaults(handler=cmd_generate)


def agent_settings(settings: Settings, args: argparse.Namespace) -> tuple[ModelSettings, AgentSettings]:
    """(ModelSettings, AgentSettings) from the loaded tree, with this command's flags on top (the tree's
    command-line layer: checked like any other value)."""
    from agent_graph.settings import apply_overrides   # lazy: see TYPE_CHECKING above (kgen --help)

    flags = {"model.url": getattr(args, "llm", None), "model.name": getattr(args, "model", None),
             "agent.backend": args.backend, "agent.samples": getattr(args, "samples", None),
             "agent.build_repairs": getattr(args, "max_build_repairs", None),
             "agent.correctness_repairs": getattr(args, "max_correctness_repairs", None),
             "agent.run_timeout": getattr(args, "timeout", None), "agent.profile": bool(getattr(args, "profile", False))}
    s = apply_overrides(settings, flags)
    model = dataclasses.replace(s.model, url=None) if getattr(args, "offline", False) else s.model
    return model, s.agent


def _run_interruptibly(fn):
    """Run ``fn(cancel)`` in a worker thread; Ctrl-C sets ``cancel`` and waits for the run to stop.

    The wait is on an Event the worker sets when it ends, not on ``Thread.join``/``is_alive``: a Ctrl-C
    that interrupts ``join`` can leave the thread looking finished while it still runs (CPython
    gh-90882), and the result was then read before the worker had written it."""
    cancel, done = threading.Event(), threading.Event()
    box: dict = {}

    def work() -> None:
        try:
            box["out"] = fn(cancel)
        except BaseException as e:  # noqa: BLE001 — re-raised in the caller's thread
            box["exc"] = e
        finally:
            done.set()

    threading.Thread(target=work, daemon=True).start()
    while not done.is_set():
        try:
            done.wait(0.2)
        except KeyboardInterrupt:
            if not cancel.is_set():
                print("kgen: cancelling (the run stays resumable)…", file=sys.stderr)
            cancel.set()
    if "exc" in box:
        raise box["exc"]
    return box["out"]


def cmd_generate(args: argparse.Namespace) -> int:
    # lazy: the agent (~0.5 s to import) and the bench bridge only when this command runs, not for kgen --help
    from agent_graph import api
    from bench_bridge.api import BenchReport, CaseReport, TaskError, load_task, render_text   # lazy: as above

    if args.samples is not None and args.samples < 1:
        return usage_error("--samples must be at least 1")
    for flag in ("max_build_repairs", "max_correctness_repairs"):
        if getattr(args, flag) is not None and getattr(args, flag) < 0:
            return usage_error(f"--{flag.replace('_', '-')} must be 0 or more")
    if args.llm and args.offline:
        return usage_error("--llm and --offline exclude each other")
    if args.resume and args.task:
        return usage_error("--resume continues a run: give either TASK or --resume RUN_ID")
    if args.words is not None:
        if args.task or args.resume:
            return usage_error("--words is the request: give either TASK, --words TEXT or --resume RUN_ID")
        if not args.words.strip():
            return usage_error("--words is empty: say which kernel you want")
    if not args.resume and args.words is None:
        if not args.task:
            return usage_error("a TASK is required (or --words TEXT, or --resume RUN_ID)")
        if not Path(args.task).exists():
            return usage_error(f"no such file or directory: {args.task}")
        try:
            load_task(Path(args.task))
        except TaskError as e:
            return usage_error(str(e))
    if not args.resume and not args.force:
        problem = api.output_problem(Path(args.output)) if args.output else None   # (the default folder: the run checks)
        if problem is not None:
            return usage_error(problem)
    elif args.output and Path(args.output).exists() and not Path(args.output).is_dir():
        return usage_error(f"output {args.output} exists and is not a directory")
    try:
        model, agent = agent_settings(settings_of(args), args)
    except Exception as e:  # noqa: BLE001 — agent_graph.settings.SettingsError: a flag's value the tree refuses
        return usage_error(str(e).splitlines()[0] if str(e) else type(e).__name__)
    if args.words is not None and not model.configured:
        return usage_error("--words needs a model to write the PyTorch reference and the shape cases (--llm URL)")
    printer = ProgressPrinter(verbose=args.verbose)
    t0 = time.monotonic()
    if args.resume:
        problem = api.resume_problem(args.resume, agent)
        if problem is not None:
            return usage_error(problem)
        out = _run_interruptibly(lambda c: api.resume(args.resume, model, agent, on_event=printer, cancel=c))
    else:
        req = api.Request(task=args.task, words=args.words, output=Path(args.output) if args.output else None,
                          replace=bool(args.force))
        out = _run_interruptibly(lambda c: api.run(req, model, agent, on_event=printer, cancel=c,
                                                   confirm=_confirm(args, c)))
    if out.status == "unsupported" and not model.configured:
        print("kgen: the offline drafter cannot write this kernel; a model could (--llm URL)", file=sys.stderr)
    if args.json:   # a report object always, refusals included (a script reading it gets the reason)
        print(_json({**(out.report or _no_report(args, out, time.monotonic() - t0)), "outcome": out.status,
                     "run_id": out.run_id}))
    elif out.report is not None:
        rep = BenchReport(**{**out.report, "cases": [CaseReport(**{**c, "outputs": [_output(o) for o in c["outputs"]]})
                                                    for c in out.report["cases"]]})
        print(render_text(rep))
        ok = sum(1 for c in rep.cases if c.status == "pass")
        print(f"generate: {rep.task} ({printer.plan_detail})  total {time.monotonic() - t0:.1f} s  "
              f"{ok}/{len(rep.cases)} cases correct  run: {out.run_id}  project: {out.project}")
        if out.project is not None and (Path(out.project) / "report.json").is_file():
            print(f"report: {Path(out.project) / 'report.json'}")   # the trace and timeline lines above are beside it
    if out.status == "error":
        print(f"kgen: error: {out.message}", file=sys.stderr)
    return EXIT_CODES.get(out.status, 1)


def _confirm(args: argparse.Namespace, cancel: threading.Event):
    """The spec confirmation for --words (None: TASK given, or --yes)."""
    if args.words is None or args.yes:
        return None
    return make_confirm(sys.stdin.isatty(), cancel)


def _output(o: dict):
    from bench_bridge.api import OutputCheck   # lazy: the bench bridge (~0.5 s to import), see cmd_generate

    return OutputCheck(**o)


def _no_report(args: argparse.Namespace, out, seconds: float) -> dict:
    """The report object of a run that benched nothing (refused, invalid task, error): the schema's fields,
    no cases, the reason as its message (docs/report-schema.md)."""
    task = Path(args.task) if args.task else None
    return {"schema": "kgen.bench-report", "schema_version": 2, "task": task.stem if task else "",
            "task_format": None, "path": str(task.resolve()) if task else None, "backend": args.backend or "sim",
            "project": str(out.project) if out.project else None, "compiled": False, "correct": False,
            "message": out.message, "seconds": round(seconds, 3), "build_diagnostics": [], "performance": None,
            "artifacts": None, "cases": []}


def _json(report: dict) -> str:
    return json.dumps(report, indent=2)
