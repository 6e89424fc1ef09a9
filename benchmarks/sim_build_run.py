#!/usr/bin/env python3
"""Build and run times of the emulator for a typical kernel-launch program.

Measures, for one ~150-line kernel (default: examples/elementwise/elementwise.asc):

* cold   - first build in a fresh KGEN_CACHE_DIR: the emulator's precompiled header is built too;
* warm   - the precompiled header exists, the source changed (a fresh comment is appended);
* cached - nothing changed: the build cache returns the binary;
* run    - running the built program (all its kernel launches and host checks);

and compares the warm build with the goal "build under 3 s". With --time-report, the warm
compile is repeated with g++ -ftime-report and the largest phases are printed.

Usage: python benchmarks/sim_build_run.py [SOURCE.asc] [--repeat N] [--time-report] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_bridge.sim import build, run  # noqa: E402
from bench_bridge.sim import compiler  # noqa: E402

GOAL_SECONDS = 3.0


def _timed_build(src: Path, **kw) -> tuple[float, object]:
    t0 = time.monotonic()
    res = build([src], **kw)
    dt = time.monotonic() - t0
    if not res.ok:
        raise SystemExit("build failed:\n" + "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:])
    return dt, res


def time_report(src: Path, cache: Path) -> list[tuple[str, float]]:
    """Re-run the warm compile command with -ftime-report; return (phase, wall seconds), largest first."""
    os.environ["KGEN_CACHE_DIR"] = str(cache)
    prelude = compiler.ensure_pch()
    work = Path(tempfile.mkdtemp(prefix="kgen-ftr-"))
    try:
        prepared, _, _ = compiler._prepare_sources([src], work)
        cmd = [compiler.CXX, *compiler._flags([], []), "-include", str(prelude), "-I", str(compiler.INCLUDE_DIR),
               "-iquote", str(src.parent), "-ftime-report", "-x", "c++", str(prepared[0]), "-x", "none",
               "-o", str(work / "a.out"), "-ldl"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    phases = []
    for line in proc.stderr.splitlines():
        m = re.match(r"\s*(.+?)\s*:.*?(\d+\.\d+)\s*\(\s*\d+%\)\s*(?:\d+[kMG]?\s*\(\s*\d+%\))?\s*$", line)
        # columns: usr, sys, wall, [ggc]; take the wall column (third "x.xx ( n%)" group)
        if not m:
            continue
        nums = re.findall(r"(\d+\.\d+)\s*\(\s*\d+%\)", line)
        if len(nums) >= 3:
            phases.append((m.group(1).strip(), float(nums[2])))
    phases.sort(key=lambda p: -p[1])
    return phases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", nargs="?", default=str(ROOT / "examples" / "elementwise" / "elementwise.asc"))
    ap.add_argument("--repeat", type=int, default=3, help="warm builds and runs to take the median of")
    ap.add_argument("--time-report", action="store_true", help="profile the warm compile with g++ -ftime-report")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = ap.parse_args(argv)

    original = Path(args.source).resolve()
    lines = len(original.read_text().splitlines())
    cache = Path(tempfile.mkdtemp(prefix="kgen-bench-cache-"))
    work = Path(tempfile.mkdtemp(prefix="kgen-bench-src-"))
    old_cache = os.environ.get("KGEN_CACHE_DIR")
    os.environ["KGEN_CACHE_DIR"] = str(cache)
    try:
        src = work / original.name
        text = original.read_text()
        src.write_text(text)
        cold, _ = _timed_build(src)
        warm_times = []
        for i in range(max(1, args.repeat)):
            src.write_text(text + f"\n// benchmark edit {i} {time.time_ns()}\n")
            dt, res = _timed_build(src)
            warm_times.append(dt)
        cached, cres = _timed_build(src)
        assert cres.cached, "the unchanged source was rebuilt instead of served from the cache"
        run_times = []
        for _ in range(max(1, args.repeat)):
            with tempfile.TemporaryDirectory() as cwd:
                r = run(res.binary, cwd=cwd, timeout=300)
            if r.returncode != 0:
                raise SystemExit(f"the program failed (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
            run_times.append(r.seconds)
        phases = time_report(src, cache) if args.time_report else []
    finally:
        if old_cache is None:
            os.environ.pop("KGEN_CACHE_DIR", None)
        else:
            os.environ["KGEN_CACHE_DIR"] = old_cache
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)

    warm = statistics.median(warm_times)
    out = {
        "source": str(original), "lines": lines, "cold_build_s": round(cold, 3), "warm_build_s": round(warm, 3),
        "warm_build_runs_s": [round(t, 3) for t in warm_times], "cached_build_s": round(cached, 4),
        "run_s": round(statistics.median(run_times), 3), "goal_s": GOAL_SECONDS,
        "warm_over_goal": round(warm / GOAL_SECONDS, 3), "flags": compiler.BASE_FLAGS,
        "time_report": [{"phase": p, "wall_s": s} for p, s in phases[:12]],
        "load_average_1min": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"kernel: {original} ({lines} lines)   g++ flags: {' '.join(compiler.BASE_FLAGS)}")
    print(f"machine: {out['cpus']} CPUs, 1-minute load average {out['load_average_1min']} (other work slows every number)")
    print(f"{'cold build (PCH rebuilt)':<32}{cold:8.2f} s")
    print(f"{'warm build (PCH, source edited)':<32}{warm:8.2f} s   runs: {', '.join(f'{t:.2f}' for t in warm_times)}")
    print(f"{'cached build (unchanged)':<32}{cached:8.3f} s")
    print(f"{'run':<32}{out['run_s']:8.2f} s")
    verdict = "meets" if warm <= GOAL_SECONDS else "MISSES"
    print(f"warm build / goal ({GOAL_SECONDS:g} s) = {warm / GOAL_SECONDS:.2f}  -> {verdict} the goal")
    if phases:
        print("\nlargest g++ phases of the warm compile (wall s):")
        for p, s in phases[:12]:
            print(f"  {p:<48}{s:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
