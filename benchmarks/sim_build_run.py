#!/usr/bin/env python3
"""Build and run times of the emulator for a typical kernel-launch program.

Measures, for one ~150-line kernel (default: examples/elementwise/elementwise.asc):

* cold   - first build in a fresh KGEN_CACHE_DIR: the emulator's precompiled header is built too;
* warm   - the precompiled header exists, the source changed (a fresh comment is appended);
* cached - nothing changed: the build cache returns the binary;
* run    - running the built program (all its kernel launches and host checks);

and compares the warm build with the goal "build under 3 s". The default compiler is measured, then
every other installed one (g++ and clang++: --compilers), and the three build times are printed side by side. Every number is given as wall time
and as CPU time of the child processes (g++, the program): on a loaded machine the wall time
grows with the load while the CPU time stays close to what an idle machine would take.

Options: --time-report profiles the warm compile with g++ -ftime-report; --compare-flags "F1" "F2"
measures warm build and run time with other g++ optimisation/debug flag sets in place of the
compiler's defaults (e.g. "-O0 -g" "-O1 -g1"), to choose the defaults.

Usage: python benchmarks/sim_build_run.py [SOURCE.asc] [--repeat N] [--time-report]
                                          [--compare-flags FLAGS ...] [--json]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import resource
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
from bench_bridge import settings as bench_settings  # noqa: E402
from bench_bridge.sim import compiler  # noqa: E402

GOAL_SECONDS = 3.0
OPT_DEBUG = re.compile(r"^-(O[0-3sgz]?|g[0-3]?|gdwarf-\d+)$")  # the flags --compare-flags replaces


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(fn):
    """(wall seconds, child CPU seconds, result) of fn()."""
    c0, t0 = _children_cpu(), time.monotonic()
    res = fn()
    return time.monotonic() - t0, _children_cpu() - c0, res


def _build(src: Path):
    res = build([src])
    if not res.ok:
        raise SystemExit("build failed:\n" + "\n".join(d.format() for d in res.diagnostics) + res.log[-3000:])
    return res


def _run(binary: Path):
    with tempfile.TemporaryDirectory() as cwd:
        r = run(binary, cwd=cwd, timeout=300)
    if r.returncode != 0:
        raise SystemExit(f"the program failed (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return r


def time_report(src: Path) -> list[tuple[str, float]]:
    """Re-run the warm compile command with -ftime-report; (phase, user+sys seconds), largest first."""
    prelude = compiler.ensure_pch()
    work = Path(tempfile.mkdtemp(prefix="kgen-ftr-"))
    try:
        prepared = compiler._prepare_sources([src], work)[0]
        cmd = [compiler.find_cxx(), *compiler._flags([], []), "-include", str(prelude), "-I", str(compiler.INCLUDE_DIR),
               "-iquote", str(src.parent), "-ftime-report", "-x", "c++", str(prepared[0]), "-x", "none",
               "-o", str(work / "a.out"), "-ldl"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    phases = []
    for line in proc.stderr.splitlines():
        m = re.match(r"\s*([^:]+?)\s*:\s*(\d+\.\d+)\s*\(\s*\d+%\)\s*(\d+\.\d+)\s*\(", line)
        if m:
            phases.append((m.group(1).strip(), float(m.group(2)) + float(m.group(3))))
    phases.sort(key=lambda p: -p[1])
    return phases


def measure(original: Path, repeat: int, profile: bool = False) -> dict:
    """Cold, warm, cached build and run of `original` in a fresh cache with the current compiler flags."""
    cache = Path(tempfile.mkdtemp(prefix="kgen-bench-cache-"))
    work = Path(tempfile.mkdtemp(prefix="kgen-bench-src-"))
    old_cache = os.environ.get("KGEN_CACHE_DIR")
    os.environ["KGEN_CACHE_DIR"] = str(cache)
    try:
        src = work / original.name
        text = original.read_text()
        src.write_text(text)
        cold = _timed(lambda: _build(src))
        warm = []
        for i in range(max(1, repeat)):
            src.write_text(text + f"\n// benchmark edit {i} {time.time_ns()}\n")
            warm.append(_timed(lambda: _build(src)))
        cached = _timed(lambda: _build(src))
        if not cached[2].cached:  # the emulator headers changed meanwhile (new cache key): the rebuild refilled it
            cached = _timed(lambda: _build(src))
        if not cached[2].cached:
            raise SystemExit("the unchanged source was rebuilt instead of served from the cache")
        runs = [_timed(lambda: _run(cached[2].binary)) for _ in range(max(1, repeat))]
        phases = time_report(src) if profile else []
    finally:
        if old_cache is None:
            os.environ.pop("KGEN_CACHE_DIR", None)
        else:
            os.environ["KGEN_CACHE_DIR"] = old_cache
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    med = lambda xs: round(statistics.median(xs), 3)  # noqa: E731
    return {
        "flags": list(compiler.BASE_FLAGS),
        "cold_build_s": round(cold[0], 3), "cold_build_cpu_s": round(cold[1], 3),
        "warm_build_s": med([w[0] for w in warm]), "warm_build_cpu_s": med([w[1] for w in warm]),
        "cached_build_s": round(cached[0], 4),
        "run_s": med([r[0] for r in runs]), "run_cpu_s": med([r[1] for r in runs]),
        "time_report": [{"phase": p, "cpu_s": round(s, 3)} for p, s in phases[:12]],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", nargs="?", default=str(ROOT / "examples" / "elementwise" / "elementwise.asc"))
    ap.add_argument("--repeat", type=int, default=3, help="warm builds and runs to take the median of")
    ap.add_argument("--time-report", action="store_true", help="profile the warm compile with g++ -ftime-report")
    ap.add_argument("--compare-flags", nargs="*", default=[], metavar="FLAGS",
                    help='optimisation/debug flag sets to compare with the defaults, e.g. "-O0 -g" "-O1 -g1"')
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    ap.add_argument("--compilers", nargs="*", default=None, metavar="FAMILY",
                    help="compiler families to measure side by side (default: every installed one of gcc, clang)")
    args = ap.parse_args(argv)

    original = Path(args.source).resolve()
    out = {"source": str(original), "lines": len(original.read_text().splitlines()), "goal_s": GOAL_SECONDS,
           "cpus": os.cpu_count(), "load_average_1min_before": round(os.getloadavg()[0], 2)}
    out["default"] = measure(original, args.repeat, args.time_report)
    out["variants"] = []
    defaults = list(compiler.BASE_FLAGS)
    try:
        for fs in args.compare_flags:
            compiler.BASE_FLAGS[:] = [f for f in defaults if not OPT_DEBUG.match(f)] + fs.split()
            out["variants"].append(measure(original, args.repeat))
    finally:
        compiler.BASE_FLAGS[:] = defaults
    found = compiler.find_compilers()
    default_family = "clang" if compiler.is_clang(compiler.find_cxx()) else "gcc"
    out["default_compiler"] = compiler.find_cxx()
    out["compilers"] = {default_family: out["default"]}
    saved = bench_settings.current()
    try:
        for fam in (args.compilers if args.compilers is not None else sorted(found)):
            if fam in out["compilers"] or fam not in found:
                continue
            # the compiler is a setting (bench.cxx): configure it as a front end would
            bench_settings.configure(dataclasses.replace(saved, cxx=found[fam]))
            out["compilers"][fam] = measure(original, args.repeat)
    finally:
        bench_settings.configure(saved)
    out["load_average_1min_after"] = round(os.getloadavg()[0], 2)
    d = out["default"]
    out["warm_over_goal"] = round(d["warm_build_s"] / GOAL_SECONDS, 3)
    out["warm_cpu_over_goal"] = round(d["warm_build_cpu_s"] / GOAL_SECONDS, 3)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0

    print(f"kernel: {original} ({out['lines']} lines)")
    print(f"machine: {out['cpus']} CPUs, 1-minute load average {out['load_average_1min_before']} -> "
          f"{out['load_average_1min_after']} (wall times grow with the load; CPU times do not)")
    print(f"\n{'':34}{'wall s':>9}{'cpu s':>9}")
    print(f"{'cold build (PCH rebuilt)':<34}{d['cold_build_s']:9.2f}{d['cold_build_cpu_s']:9.2f}")
    print(f"{'warm build (PCH, source edited)':<34}{d['warm_build_s']:9.2f}{d['warm_build_cpu_s']:9.2f}")
    print(f"{'cached build (unchanged)':<34}{d['cached_build_s']:9.3f}")
    print(f"{'run':<34}{d['run_s']:9.2f}{d['run_cpu_s']:9.2f}")
    print(f"flags: {' '.join(d['flags'])}")
    if len(out["compilers"]) > 1:
        fams = list(out["compilers"])
        print(f"\n{'build wall s (cpu s)':<34}" + "".join(f"{f + (' (default)' if f == default_family else ''):>22}" for f in fams))
        for label, w, c in (("cold (PCH built)", "cold_build_s", "cold_build_cpu_s"),
                            ("warm (PCH, source edited)", "warm_build_s", "warm_build_cpu_s"),
                            ("cached (unchanged)", "cached_build_s", None),
                            ("run", "run_s", "run_cpu_s")):
            cells = [f"{m[w]:.2f}" + (f" ({m[c]:.2f})" if c else "") for m in out["compilers"].values()]
            print(f"{label:<34}" + "".join(f"{x:>22}" for x in cells))
    for name, key in (("wall", "warm_build_s"), ("cpu", "warm_build_cpu_s")):
        v = d[key]
        print(f"warm build ({name}) / goal {GOAL_SECONDS:g} s = {v / GOAL_SECONDS:.2f} -> "
              f"{'meets' if v <= GOAL_SECONDS else 'MISSES'} the goal")
    if out["variants"]:
        print(f"\n{'flag set':<48}{'warm wall':>10}{'warm cpu':>10}{'run cpu':>9}{'cold cpu':>10}")
        for v in [d, *out["variants"]]:
            fl = " ".join(f for f in v["flags"] if OPT_DEBUG.match(f))
            print(f"{fl:<48}{v['warm_build_s']:10.2f}{v['warm_build_cpu_s']:10.2f}{v['run_cpu_s']:9.2f}"
                  f"{v['cold_build_cpu_s']:10.2f}")
    if d["time_report"]:
        print("\nlargest g++ phases of the warm compile (user+sys s):")
        for p in d["time_report"]:
            print(f"  {p['phase']:<48}{p['cpu_s']:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
