"""Offline drafter over the team-written suite: correctness, generation time, modelled speedup.

    python benchmarks/drafter_suite.py [TASK_DIR ...] [--suite DIR] [--no-perf] [--json FILE]

For every task (default: tests/data/drafter/*): draft the project with the offline drafter, build,
run and verify it on every shape case (kgen bench, emulator backend), then -- when the performance
model (bench_bridge.perf) is there -- model the kernel on the task's largest case and the PyTorch
reference as eager kernels, and report the modelled speedup. Prints one row per task and a summary:
share correct on all cases, median generation + verification time, share with speedup >= 1.0.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent_graph.drafter import Unsupported, draft, prebuild, write_project  # noqa: E402
from agent_graph.drafter import measure  # noqa: E402
from bench_bridge.bench import BenchOptions, bench  # noqa: E402
from bench_bridge.tasks import load_task  # noqa: E402


def run_task(spec: Path, perf_on: bool, out: Path | None = None, perf_only: bool = False, jobs: int = 1) -> dict:
    task = load_task(spec)
    row: dict = {"task": task.name}
    t0 = time.monotonic()
    d = draft(task)
    if isinstance(d, Unsupported):
        row.update(status="unsupported", reason=d.reason)
        return row
    row.update(category=d.plan.category, template=d.plan.template, draft_s=round(d.seconds, 2))
    with tempfile.TemporaryDirectory(prefix="kgen-drafter-") as tmp:
        project = write_project(d.plan, (out or Path(tmp)) / task.name)
        if perf_only:
            m = measure.modelled(task, project)
            m.pop("report", None)
            row.update(m, status="perf-only", total_s=round(time.monotonic() - t0, 2))
            return row
        if jobs > 1:  # every dtype combination built at once; the bench then finds them in the build cache
            prebuild(project, jobs)
        rep = bench(spec, BenchOptions(project=project.resolve(), timeout=600))
        row["total_s"] = round(time.monotonic() - t0, 2)
        row["cases"] = len(rep.cases)
        row["passed"] = sum(1 for c in rep.cases if c.status == "pass")
        row["correct"] = bool(rep.correct)
        row["status"] = "correct" if rep.correct else "wrong"
        if not rep.correct:
            bad = next((c for c in rep.cases if c.status != "pass"), None)
            row["reason"] = rep.message or (f"case {bad.case_id}: {bad.message}" if bad else "")
        if perf_on and rep.correct:
            try:
                m = measure.modelled(task, project)
                m.pop("report", None)
                row.update(m)
            except Exception as e:  # the model is optional: report, go on
                row["perf_error"] = f"{type(e).__name__}: {e}"
    return row


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks", nargs="*", type=Path, help="task dirs or specs (default: every task of --suite)")
    ap.add_argument("--suite", type=Path, default=ROOT / "tests" / "data" / "drafter")
    ap.add_argument("--no-perf", action="store_true", help="skip the performance model")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    ap.add_argument("--perf-only", action="store_true", help="only the modelled speedup (no verification)")
    ap.add_argument("--out", type=Path, help="keep the drafted projects here (default: a temporary directory)")
    ap.add_argument("--jobs", type=int, default=1, help="build the dtype combinations of a task on this many cores at once")
    args = ap.parse_args(argv)
    specs = [t / "kgen-task.toml" if t.is_dir() else t for t in args.tasks] or sorted(args.suite.glob("*/kgen-task.toml"))
    perf_on = not args.no_perf and measure.available()
    rows = []
    for spec in specs:
        row = run_task(spec, perf_on or args.perf_only, args.out, args.perf_only, args.jobs)
        rows.append(row)
        sp = f"{row['speedup']:.3f}x" if "speedup" in row and row["speedup"] is not None else "n/a"
        print(f"{row['task']:<16} {row.get('category', '-'):<14} {row.get('template', '-'):<5} {row['status']:<11} "
              f"{row.get('passed', 0)}/{row.get('cases', 0)}  draft {row.get('draft_s', 0):5.2f} s  "
              f"total {row.get('total_s', 0):6.1f} s  speedup {sp}  {row.get('reason', '')[:90]}", flush=True)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=1))
    n = len(rows)
    correct = [r for r in rows if r.get("correct")]
    totals = [r["total_s"] for r in rows if "total_s" in r]
    speed = [r["speedup"] for r in rows if r.get("speedup") is not None]
    print(f"\ntasks: {n}   correct on all cases: {len(correct)}/{n} ({100 * len(correct) / max(n, 1):.1f}%)")
    print(f"generation + verification: median {statistics.median(totals):.1f} s, max {max(totals):.1f} s" if totals else
          "generation + verification: n/a")
    print(f"draft only: median {statistics.median([r['draft_s'] for r in rows if 'draft_s' in r]):.2f} s"
          if any("draft_s" in r for r in rows) else "")
    if perf_on and speed:
        wins, ties = sum(s > 1.0005 for s in speed), sum(1.0 <= s <= 1.0005 for s in speed)
        print(f"modelled speedup vs modelled eager: >= 1.0 on {sum(s >= 1.0 for s in speed)}/{n} tasks "
              f"({100 * sum(s >= 1.0 for s in speed) / max(n, 1):.1f}%: {wins} faster, {ties} tied within 0.05%), "
              f"median {statistics.median(speed):.3f}x")
    else:
        print("modelled speedup vs modelled eager: n/a" + ("" if perf_on else " (performance model not available or --no-perf)"))
    return 0 if len(correct) == n else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
