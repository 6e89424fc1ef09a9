"""``python -m lsp.benchjob FILE OUTDIR``: bench the program or project a file belongs to, for the
editor's "Benchmark current file" (run by the server in a child process it can kill).

Progress goes to stderr as ``progress: <message>`` lines (the bench's typed events, as text); stdout gets one JSON object
``{"target": ..., "report": <BenchReport dict>, "report_path": ..., "png": <timeline PNG path or null>,
"trace": <Chrome-trace path or null>}`` or ``{"error": "<one sentence>"}``. The bench is profiled and
its artifacts (trace + timeline picture, docs/report-schema.md) are written to OUTDIR, so they outlive
this process; ``png`` and ``trace`` repeat the report's ``artifacts`` for the first profiled case. The
report is written to OUTDIR/report.json (and, for a project, to the project's report.json, where
``kgen generate`` leaves it, so the editor finds the run-time findings of the last bench again after a
restart).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from bench_bridge.api import TASK_FILE, BenchError, BenchEvent, BenchOptions, bench
from lsp.config import configure_child
from lsp.targets import target_of


def _say(event: BenchEvent) -> None:
    print(f"progress: {event}", file=sys.stderr, flush=True)


def bench_file(path: Path, outdir: Path) -> dict:
    target = target_of(path)
    if target is None:
        return {"error": f"{path.name} is neither a kernel-launch program (no main) nor part of an op project "
                         f"(op_host/ + op_kernel/)"}
    if target.kind == "project" and target.task is None:
        return {"error": f"{target.path.name}: no task to bench the project against (add a {TASK_FILE} to the "
                         f"project, or open it as answer/0 of an NPUKernelBench task)"}
    outdir = outdir.resolve()
    try:
        if target.kind == "program":
            rep = bench(target.path, BenchOptions(profile=True, artifacts_dir=outdir), on_event=_say)
        else:
            rep = bench(target.task, BenchOptions(project=target.path, profile=True, artifacts_dir=outdir), on_event=_say)
    except BenchError as e:
        return {"error": str(e)}
    outdir.mkdir(parents=True, exist_ok=True)
    report = json.loads(rep.to_json())
    report_path = outdir / "report.json"
    report_path.write_text(rep.to_json() + "\n")
    if target.kind == "project":
        (target.path / "report.json").write_text(rep.to_json() + "\n")
    return {"target": {"kind": target.kind, "path": str(target.path)}, "report": report,
            "report_path": str(report_path), "png": rep.artifacts.timeline_png, "trace": rep.artifacts.trace}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m lsp.benchjob FILE OUTDIR", file=sys.stderr)
        return 2
    configure_child()
    print(json.dumps(bench_file(Path(args[0]).resolve(), Path(args[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
