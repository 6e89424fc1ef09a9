#!/usr/bin/env python3
"""Modelled NPU times of the example kernels, and the cost of tracing on the emulator.

For every kernel-launch program under examples/ (or the ones given), builds it, runs it on the
emulator with the instruction trace on, and prints the performance model's verdict: modelled
kernel time, launch overhead, bounding pipe/resource, GM bytes and achieved bandwidth. For the
examples with an obvious PyTorch equivalent (add), the modelled PyTorch-eager time and speedup.

With --overhead it also measures the instrumentation overhead: the same binary run N times with
and without KGEN_TRACE_FILE, CPU time of the child (user + sys) compared (goal: under 2x), plus
the time the model itself takes on the trace.

Usage: python benchmarks/perf_model.py [SOURCE.asc ...] [--soc 910B2] [--overhead] [--repeat N] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_bridge import perf  # noqa: E402
from bench_bridge.sim import build, run  # noqa: E402

# Examples whose reference is one obvious PyTorch expression over their inputs (shape from the program).
EAGER = {
    "add": ("torch.add on 2 x 65536 half", lambda torch: (torch.add, (torch.zeros(65536, dtype=torch.float16),
                                                                     torch.zeros(65536, dtype=torch.float16)))),
}


# A larger workload for the overhead measurement: 48 blocks x 64 tiles of the perf test kernel.
LARGE = (ROOT / "tests" / "bench_bridge" / "perf" / "kernels" / "perf_add.asc", ["48", str(48 * 64 * 4096), "2", "2"])


def _child_cpu(binary: Path, env: dict, cwd: str, argv: list[str] = ()) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(binary), *argv], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def overhead(binary: Path, repeat: int, argv: list[str] = ()) -> dict:
    with tempfile.TemporaryDirectory() as cwd:
        base = {k: v for k, v in os.environ.items() if k != "KGEN_TRACE_FILE"}
        plain, traced = [], []
        for i in range(repeat):
            plain.append(_child_cpu(binary, base, cwd, argv))
            tf = Path(cwd) / f"t{i}.jsonl"
            traced.append(_child_cpu(binary, {**base, "KGEN_TRACE_FILE": str(tf)}, cwd, argv))
        t0 = time.process_time()
        perf.profile(tf)
        model_s = time.process_time() - t0
        events = sum(len(b.events) for ln in perf.events.load_trace(tf) for b in ln.blocks)
    p, t = statistics.median(plain), statistics.median(traced)
    return {"run_cpu_s": p, "traced_run_cpu_s": t, "ratio": t / p if p else float("nan"), "events": events,
            "model_cpu_s": model_s}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sources", nargs="*", type=Path)
    ap.add_argument("--soc", default=None)
    ap.add_argument("--overhead", action="store_true", help="measure the tracing overhead on emulator run time")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sources = args.sources or sorted((ROOT / "examples").glob("*/*.asc"))
    rows = []
    for src in sources:
        res = build([src])
        if not res.ok:
            rows.append({"kernel": src.stem, "error": "build failed"})
            continue
        with tempfile.TemporaryDirectory() as cwd:
            r = run(res.binary, cwd=cwd, trace=True, timeout=300)
        if not r.ok or not r.trace_file or not r.trace_file.exists():
            rows.append({"kernel": src.stem, "error": "run failed or launched no kernel"})
            continue
        rep = perf.profile(r.trace_file, soc=args.soc)
        row = {"kernel": src.stem, "modelled_us": rep.modelled_us, "launch_us": rep.launch_overhead_us,
               "bound": rep.bound, "cores_bound": rep.execution_bound, "gm_bytes": rep.gm_bytes,
               "achieved_gbps": rep.achieved_gbps, "launches": len(rep.launches),
               "blocks": sum(ln.blocks for ln in rep.launches)}
        if src.stem in EAGER:
            try:
                import torch

                what, make = EAGER[src.stem]
                fn, inputs = make(torch)
                eager = perf.eager_baseline(fn, *inputs, soc=args.soc)
                rep.with_reference(eager)
                row.update(eager=what, eager_us=eager.time_us, speedup=rep.speedup_vs_eager,
                           roofline_fraction=rep.roofline_fraction)
            except ImportError:
                pass
        if args.overhead:
            row["overhead"] = overhead(Path(res.binary), args.repeat)
        rows.append(row)
    soc = perf.load_costs(args.soc).soc
    print(f"modelled on {soc} (SoC facts: bench_bridge/soc.toml; costs: bench_bridge/perf/costs_910b.toml)")
    print(f"{'kernel':<20}{'time us':>9}{'launch':>8}{'GB/s':>8}  {'bound (cores)':<44}{'eager us':>9}{'speedup':>8}")
    for r in rows:
        if "modelled_us" not in r and "error" not in r:
            continue
        if "error" in r:
            print(f"{r['kernel']:<20}{r['error']}")
            continue
        eager = f"{r['eager_us']:9.2f}{r['speedup']:7.2f}x" if "eager_us" in r else ""
        print(f"{r['kernel']:<20}{r['modelled_us']:9.2f}{r['launch_us']:8.1f}{r['achieved_gbps']:8.1f}  "
              f"{r['cores_bound'][:43]:<44}{eager}")
    if args.overhead:
        res = build([LARGE[0]])
        if res.ok:
            rows.append({"kernel": "perf_add (large)", "overhead": overhead(Path(res.binary), args.repeat, LARGE[1])})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if args.overhead:
        print("\ntracing overhead (CPU time of the emulator run, median of %d; goal < 2x)" % args.repeat)
        print(f"{'kernel':<20}{'plain s':>9}{'traced s':>9}{'ratio':>7}{'events':>9}{'model s':>9}")
        for r in rows:
            o = r.get("overhead")
            if o:
                print(f"{r['kernel']:<20}{o['run_cpu_s']:9.3f}{o['traced_run_cpu_s']:9.3f}{o['ratio']:6.2f}x"
                      f"{o['events']:9d}{o['model_cpu_s']:9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
