"""Candidates per minute of ``kgen eval`` on this machine: a local pool with --jobs 1 and --jobs 2, and
Ray with 2 local workers (``--ray local --jobs 2``), on the same suite and generator.

    python benchmarks/eval_throughput.py [--suite tests/data/eval/suite6.txt] [--generator offline] [--json OUT]

A warm-up run fills the build cache first, so the figures compare executors, not cold compiles. Each
measured run writes into a fresh output folder (nothing is resumed). Ray is skipped when not installed.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [("pool, --jobs 1", ["--jobs", "1"]), ("pool, --jobs 2", ["--jobs", "2"]),
           ("ray, 2 local workers", ["--ray", "local", "--jobs", "2"])]


def run(suite: str, generator: str, extra: list[str], out: Path) -> tuple[float, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_USAGE_STATS_ENABLED": "0"}
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "eval", suite, "--generator", generator, "-o", str(out),
                        "--json", *extra], cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    if r.returncode != 0:
        raise SystemExit(f"eval_throughput: kgen eval {' '.join(extra)} failed: {r.stderr.strip().splitlines()[-1:]}")
    lines = (out / "results.jsonl").read_text().splitlines()
    return seconds, len(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default=str(ROOT / "tests" / "data" / "eval" / "suite6.txt"))
    ap.add_argument("--generator", default="offline")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="kgen-eval-bench-") as tmp:
        print("warm-up (fills the build cache)…", file=sys.stderr)
        run(args.suite, args.generator, ["--jobs", "2"], Path(tmp) / "warm")
        for label, extra in CONFIGS:
            if "--ray" in extra and importlib.util.find_spec("ray") is None:
                rows.append({"executor": label, "skipped": "ray not installed (pip install 'kgen[ray]')"})
                continue
            seconds, n = run(args.suite, args.generator, extra, Path(tmp) / label.replace(" ", "_").replace(",", ""))
            rows.append({"executor": label, "candidates": n, "seconds": round(seconds, 1),
                         "per_minute": round(60 * n / seconds, 2)})
            print(f"{label:<22} {n} candidates in {seconds:6.1f} s: {60 * n / seconds:6.2f} candidates/min", file=sys.stderr)
    print(f"{'executor':<22} {'candidates':>10} {'seconds':>8} {'per minute':>10}")
    for r in rows:
        if "skipped" in r:
            print(f"{r['executor']:<22} skipped: {r['skipped']}")
        else:
            print(f"{r['executor']:<22} {r['candidates']:>10} {r['seconds']:>8} {r['per_minute']:>10}")
    if args.json:
        Path(args.json).write_text(json.dumps({"suite": args.suite, "generator": args.generator, "cpus": os.cpu_count(),
                                               "runs": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
