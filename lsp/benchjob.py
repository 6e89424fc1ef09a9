"""``python -m lsp.benchjob FILE OUTDIR``: bench the program or project a file belongs to, for the
editor's "Benchmark current file" (run by the server in a child process it can kill).

Progress goes to stderr as ``progress: <message>`` lines; stdout gets one JSON object
``{"target": ..., "report": <BenchReport dict>, "report_path": ..., "png": <timeline PNG path or null>}``
or ``{"error": "<one sentence>"}``. The report is written to OUTDIR/report.json (and, for a project,
to the project's report.json, where ``kgen generate`` leaves it, so the editor finds the run-time
findings of the last bench again after a restart). The timeline PNG is modelled from the emulator
trace of the first run (``bench_bridge.perf``).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from lsp.simbuild import target_of


def _say(msg: str) -> None:
    print(f"progress: {msg}", file=sys.stderr, flush=True)


def _record_traces(traces: list[Path]) -> None:
    """Keep the trace files of the emulator runs of this bench (this child process only): the bench
    report carries the modelled figures, the picture needs the trace itself."""
    import bench_bridge.bench as bench_mod
    import bench_bridge.project.run as run_mod

    def wrap(fn):
        def run(*a, **k):
            r = fn(*a, **k)
            if getattr(r, "trace_file", None) is not None and r.trace_file.exists():
                traces.append(r.trace_file)
            return r
        return run

    bench_mod.sim_run = wrap(bench_mod.sim_run)
    run_mod.run = wrap(run_mod.run)


def bench_file(path: Path, outdir: Path) -> dict:
    from bench_bridge.bench import BenchError, BenchOptions, bench

    target = target_of(path)
    if target is None:
        return {"error": f"{path.name} is neither a kernel-launch program (no main) nor part of an op project "
                         f"(op_host/ + op_kernel/)"}
    if target.kind == "project" and target.task is None:
        return {"error": f"{target.path.name}: no task to bench the project against (add a kgen-task.toml to the "
                         f"project, or open it as answer/0 of an NPUKernelBench task)"}
    traces: list[Path] = []
    _record_traces(traces)
    try:
        if target.kind == "program":
            rep = bench(target.path, BenchOptions(profile=True), progress=_say)
        else:
            rep = bench(target.task, BenchOptions(project=target.path, profile=True), progress=_say)
    except BenchError as e:
        return {"error": str(e)}
    outdir.mkdir(parents=True, exist_ok=True)
    report = json.loads(rep.to_json())
    report_path = outdir / "report.json"
    report_path.write_text(rep.to_json() + "\n")
    if target.kind == "project":
        (target.path / "report.json").write_text(rep.to_json() + "\n")
    png = None
    if traces:
        try:
            from bench_bridge import perf

            _say("drawing the modelled timeline")
            png = str(perf.write_png(perf.profile(traces[0]), outdir / "timeline.png"))
        except Exception as e:   # noqa: BLE001 - the report stands without its picture
            _say(f"no timeline picture: {e}")
    return {"target": {"kind": target.kind, "path": str(target.path)}, "report": report,
            "report_path": str(report_path), "png": png}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m lsp.benchjob FILE OUTDIR", file=sys.stderr)
        return 2
    print(json.dumps(bench_file(Path(args[0]).resolve(), Path(args[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
