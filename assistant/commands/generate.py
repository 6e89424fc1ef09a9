"""``kgen generate TASK``: draft an AscendC custom-op project for a task, then build, run and verify it.

Without a model (``--offline``, or when no model is configured) the offline drafter writes the project
from its templates (agent_graph.drafter); the project is then benched on every shape case with
``bench_bridge.bench`` and the project + report (docs/report-schema.md) are written to DIR.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

EXIT_USAGE = 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="draft an op project for a task, then build, run and verify it")
    p.add_argument("task", metavar="TASK", help="NPUKernelBench task dir, KernelBench .py or kgen spec (.toml)")
    p.add_argument("--offline", action="store_true", help="use the offline drafter (templates, no model)")
    p.add_argument("--llm", metavar="URL", help="model endpoint (the LLM agent is not available yet)")
    p.add_argument("--backend", choices=["sim"], default="sim", help="sim: CPU emulator (default)")
    p.add_argument("-o", "--output", metavar="DIR", help="where to write the project and report.json (default: ./kgen-out/<task>)")
    p.add_argument("--json", action="store_true", help="print the report as JSON (schema: docs/report-schema.md)")
    p.add_argument("--profile", action="store_true", help="also model each case's time and the speedup over PyTorch eager")
    p.add_argument("--timeout", type=float, default=120.0, metavar="SEC", help="wall-clock limit per kernel run (default 120)")
    p.set_defaults(handler=cmd_generate)


def _model_configured(args: argparse.Namespace) -> bool:
    return bool(args.llm or os.environ.get("KGEN_LLM_URL"))


def cmd_generate(args: argparse.Namespace) -> int:
    from agent_graph.drafter import Unsupported, draft, write_project
    from bench_bridge.bench import BenchError, BenchOptions, bench
    from bench_bridge.report import render_text
    from bench_bridge.tasks import TaskError, load_task

    def say(msg: str) -> None:
        print(f"kgen: {msg}", file=sys.stderr)

    if not Path(args.task).exists():
        print(f"kgen: error: no such file or directory: {args.task}", file=sys.stderr)
        return EXIT_USAGE
    if args.llm and not args.offline:
        print("kgen: error: the LLM agent is not available yet: run with --offline (the template drafter)", file=sys.stderr)
        return EXIT_USAGE
    if not args.offline:
        say("no model configured: using the offline drafter")
    try:
        task = load_task(Path(args.task))
    except TaskError as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    out = Path(args.output) if args.output else Path("kgen-out") / task.name
    if out.exists() and not out.is_dir():
        print(f"kgen: error: output {out} exists and is not a directory", file=sys.stderr)
        return EXIT_USAGE
    t0 = time.monotonic()
    say(f"analysing the reference {task.reference.name} ({len(task.cases)} case(s))")
    d = draft(task)
    if isinstance(d, Unsupported):
        print(f"kgen: {d}", file=sys.stderr)
        print("kgen: the offline drafter cannot write this kernel; an LLM agent would be needed", file=sys.stderr)
        return 3
    gen_s = time.monotonic() - t0
    say(f"drafted {d.op_type} from template '{d.plan.template}' (category {d.plan.category}) in {gen_s:.1f} s")
    project = write_project(d.plan, out)
    say(f"wrote the project to {project}")
    try:
        rep = bench(Path(args.task), BenchOptions(project=project.resolve(), timeout=args.timeout, profile=args.profile),
                    progress=lambda m: say(m + "…"))
    except BenchError as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    (project / "report.json").write_text(rep.to_json() + "\n")
    total = time.monotonic() - t0
    if args.json:
        print(rep.to_json())
    else:
        print(render_text(rep))
        ok = sum(1 for c in rep.cases if c.status == "pass")
        print(f"generate: {d.op_type} ({d.plan.category}, template {d.plan.template})  draft {gen_s:.1f} s  "
              f"total {total:.1f} s  {ok}/{len(rep.cases)} cases correct  project: {project}")
    return 0 if rep.correct else 1
