"""``kgen bench PATH``: build, run and verify a kernel against its reference on the emulator (or an NPU)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from assistant.commands.bench_npu import run_npu
from assistant.commands.common import add_soc_flag
from assistant.commands.sandbox_flag import add_flag


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="build, run and verify an op project or kernel against its reference")
    p.add_argument("path", metavar="PATH", help="NPUKernelBench task dir, KernelBench .py, kgen spec (.toml), op project "
                                                "dir with kgen-task.toml, or a kernel-launch program (.asc/.cpp)")
    p.add_argument("--project", metavar="DIR", help="op project to bench (default: the task's answer/0 or the spec's project)")
    p.add_argument("--case", metavar="N", help="run only this case (id or position)")
    p.add_argument("--backend", choices=["sim", "npu"], default="sim", help="sim: CPU emulator (default); npu: CANN + torch_npu")
    p.add_argument("--dry-run", action="store_true", help="with --backend npu: print the commands instead of running them")
    p.add_argument("--json", action="store_true", help="print the report as JSON (schema: docs/report-schema.md)")
    p.add_argument("--profile", action="store_true", help="model each case's kernel time, bound and speedup vs PyTorch eager")
    p.add_argument("--artifacts", metavar="DIR", help="with --profile: write each case's trace (Perfetto) and timeline "
                                                      "picture to DIR (default: a run folder in the kgen cache)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="SEC", help="wall-clock limit per kernel run (default 120)")
    add_soc_flag(p)
    add_flag(p)
    p.set_defaults(handler=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import BenchError, BenchOptions, bench, render_text

    if not Path(args.path).exists():
        print(f"kgen: error: no such file or directory: {args.path}", file=sys.stderr)
        return 2
    if args.project and not Path(args.project).is_dir():
        print(f"kgen: error: no such project directory: {args.project}", file=sys.stderr)
        return 2
    if args.backend == "npu" and args.artifacts is not None:
        print("kgen: error: --artifacts applies to --backend sim (the emulator's profile)", file=sys.stderr)
        return 2
    if args.backend == "npu":
        return run_npu(args)
    if args.dry_run:
        print("kgen: error: --dry-run applies to --backend npu", file=sys.stderr)
        return 2
    artifacts = None
    if args.artifacts is not None:
        if not args.profile:
            print("kgen: error: --artifacts needs --profile (only a profiled bench writes a trace and a timeline picture)",
                  file=sys.stderr)
            return 2
        try:
            artifacts = writable_dir(Path(args.artifacts))
        except ValueError as e:
            print(f"kgen: error: --artifacts {args.artifacts}: {e}", file=sys.stderr)
            return 2
    opts = BenchOptions(case=args.case, backend=args.backend, project=Path(args.project) if args.project else None,
                        timeout=args.timeout, profile=args.profile, artifacts_dir=artifacts)
    try:
        rep = bench(args.path, opts, on_event=None if args.json else (lambda ev: print(f"kgen: {ev}…", file=sys.stderr)))
    except BenchError as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
    print(rep.to_json() if args.json else render_text(rep))
    if rep.artifacts.dir and args.artifacts is None and not args.json:
        print(f"kgen: the profile's trace and timeline picture are in {rep.artifacts.dir} (a run folder in the kgen "
              "cache); --artifacts DIR writes them where you choose", file=sys.stderr)
    return 0 if rep.correct else 1


def writable_dir(d: Path) -> Path:
    """``d`` made (with its parents) and checked by writing a scratch file there, so a bad folder stops the
    bench before it builds anything; ValueError says why in a few words."""
    if d.exists() and not d.is_dir():
        raise ValueError("is a file, not a directory")
    try:
        d.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=d):
            pass
    except OSError as e:
        raise ValueError(f"not a writable directory ({e.strerror or e})") from e
    return d.resolve()
