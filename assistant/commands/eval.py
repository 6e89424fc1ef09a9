"""``kgen eval SUITE``: evaluate a whole suite (agent_graph.evaluate): k candidates per task from a
generator, compile -> correctness -> performance in isolated children, scored as NPUKernelBench does.

Progress goes to stderr (a live line on a terminal); the summary table (or ``--json``) to stdout.
Exit status: 0 the run finished (whatever the scores), 2 usage error, 130 interrupted (the results
file holds every finished candidate: run the same command, or ``--resume DIR``, to continue).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.common import add_soc_flag, settings_of, usage_error
from assistant.commands.generate import agent_settings
from assistant.commands.sandbox_flag import add_flag as add_sandbox_flag

if TYPE_CHECKING:
    from agent_graph.api import EvalRequest


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="evaluate a suite of tasks: k candidates each, compile/correctness/performance, "
                                    "NPUKernelBench scores (docs/eval.md)")
    p.add_argument("suite", metavar="SUITE", nargs="?", help="NPUKernelBench tasks/ tree (or a level/category folder), a "
                   "folder of KernelBench .py files or kgen specs, or a text file listing any of these")
    p.add_argument("--generator", default="offline", metavar="GEN",
                   help="offline (the drafter, default) | model (the agent, needs --llm) | golden (the task's answer) "
                        "| projects:DIR (DIR/<task>: existing op projects)")
    p.add_argument("-k", type=int, default=1, metavar="K", help="candidates per task for the model generator (pass@k)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="candidates at a time on this machine (default 1)")
    p.add_argument("--backend", choices=["sim", "npu"], default="sim", help="sim: the CPU emulator (default)")
    p.add_argument("--ray", metavar="ADDRESS", help="run the candidates as Ray tasks on this cluster ('local': a private "
                                                    "local Ray with --jobs CPUs); needs pip install 'kgen[ray]'")
    p.add_argument("--resume", metavar="RUN", help="continue the evaluation in output folder RUN (its own settings)")
    p.add_argument("-o", "--output", metavar="DIR", help="output folder (default ./kgen-eval/<suite>-<generator>); "
                                                         "re-running into it continues where it stopped")
    p.add_argument("--json", action="store_true", help="print summary.json instead of the table")
    p.add_argument("--export-training", metavar="DIR", help="write SFT / preference / verified records (JSON lines) to DIR")
    p.add_argument("--level", action="append", default=[], metavar="L", help="only this level (level1...); repeatable")
    p.add_argument("--category", action="append", default=[], metavar="C", help="only this category; repeatable")
    p.add_argument("--name", action="append", default=[], metavar="GLOB", help="only tasks whose name matches; repeatable")
    p.add_argument("--llm", metavar="URL", help="OpenAI-compatible endpoint for --generator model")
    p.add_argument("--model", metavar="NAME", help="served model name (default from the settings)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="SEC", help="wall-clock limit per kernel run (default 120)")
    p.add_argument("--candidate-timeout", type=float, default=1800.0, metavar="SEC",
                   help="wall-clock limit of one candidate, generation included (default 1800)")
    p.add_argument("--memory-mb", type=int, default=20480, metavar="MB", help="address-space limit of one candidate (default 20480)")
    p.add_argument("--no-vs-golden", action="store_true", help="do not time the tasks' golden answers (no fast_p vs golden)")
    p.add_argument("--no-perf", action="store_true", help="correctness only: no instruction trace, no modelled times "
                   "(no fast_p); large cases run much faster")
    add_soc_flag(p)
    add_sandbox_flag(p)
    p.set_defaults(handler=cmd_eval)


def _request(args: argparse.Namespace) -> EvalRequest:
    # lazy: the evaluation engine (the agent, its prompts, the export: ~0.5 s to import), not for kgen --help
    from agent_graph.api import EvalError, EvalRequest, Limits, request_from_run

    export = Path(args.export_training) if args.export_training else None
    if args.resume:
        if args.suite:
            raise EvalError("--resume continues a run: give either SUITE or --resume RUN")
        if args.soc:
            raise EvalError("--resume continues a run on its own SoC: --soc starts a new run (another -o)")
        return request_from_run(Path(args.resume), jobs=args.jobs, ray_address=args.ray, export_training=export)
    if not args.suite:
        raise EvalError("a SUITE is required (or --resume RUN)")
    if not Path(args.suite).exists():
        raise EvalError(f"no such suite: {args.suite}")
    suite = Path(args.suite)
    out = Path(args.output) if args.output else Path("kgen-eval") / f"{suite.resolve().name}-{args.generator.split(':')[0]}"
    if args.timeout <= 0 or args.candidate_timeout <= 0 or args.memory_mb < 0:
        raise EvalError("--timeout, --candidate-timeout and --memory-mb must be positive")
    return EvalRequest(suite=suite, generator=args.generator, k=args.k, jobs=args.jobs, backend=args.backend,
                       ray_address=args.ray, output=out, levels=args.level, categories=args.category, names=args.name,
                       export_training=export, vs_golden=not args.no_vs_golden, soc=settings_of(args).bench.soc if args.soc else None,
                       perf=not args.no_perf, limits=Limits(candidate_seconds=args.candidate_timeout, memory_mb=args.memory_mb,
                                     run_timeout=args.timeout))


def cmd_eval(args: argparse.Namespace) -> int:
    # lazy: the evaluation engine (the agent, its prompts, the export: ~0.5 s to import), not for kgen --help
    from agent_graph.api import EvalError, EvalProgressPrinter, run_eval

    try:
        req = _request(args)
        model, agent = agent_settings(settings_of(args),
                                      argparse.Namespace(backend=args.backend, llm=args.llm, model=args.model))
    except EvalError as e:
        return usage_error(str(e))
    except Exception as e:  # noqa: BLE001 — agent_graph.settings.SettingsError: a flag's value the tree refuses
        return usage_error(str(e).splitlines()[0] if str(e) else type(e).__name__)
    try:
        summary = run_eval(req, model, agent, on_event=EvalProgressPrinter())
    except EvalError as e:
        return usage_error(str(e))
    except KeyboardInterrupt:
        print(f"kgen: interrupted: {req.output / 'results.jsonl'} holds the finished candidates "
              f"(continue with kgen eval --resume {req.output})", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2, sort_keys=True))
        return 0
    m = summary.metrics
    print(f"eval: {summary.tasks} tasks ({m.get('skipped', 0)} skipped), {summary.candidates} candidates, generator "
          f"{summary.generator}, k={summary.k}")
    print(f"  compile@{summary.k} {m.get('compile@k', 0):.3f}  correct@{summary.k} {m.get('correct@k', 0):.3f}  "
          f"mean score {m.get('score', 0):.2f}  " + "  ".join(f"{p} {v:.2f}" for p, v in m.get("fast_p_vs_eager", {}).items()))
    for lv, row in summary.levels.items():
        print(f"  {lv}: {row['tasks']} tasks, score {row['score']:.2f}, {row['correct']} correct")
    if summary.weighted_score is not None:
        print(f"  weighted score (0.2/0.3/0.5): {summary.weighted_score:.2f}")
    if summary.error_classes:
        print("  error classes: " + ", ".join(f"{c} {n}" for c, n in sorted(summary.error_classes.items(),
                                                                             key=lambda kv: (-kv[1], kv[0]))))
    if "training_export" in m:
        t = m["training_export"]
        print(f"  training export: {t['sft_repairs']} SFT repair records, {t['verified']} verified pairs, "
              f"{t['preferences']} preference pairs -> {req.export_training}")
    print(f"summary: {req.output / 'summary.md'}")
    return 0
