#!/usr/bin/env python3
"""Throughput of the emulated cube unit (Mmad, multiply-adds per second) and of an element-wise vector
instruction (Add, elements per second), each against a plain C++ loop doing the same arithmetic on this
machine.

Builds ``benchmarks/sim_throughput.asc`` with ``kgen sim build`` (the emulator's compiler and flags, which
the plain loops get too: they are in the same program), runs it once and prints one row per measurement:
the emulated rate, the plain loop's rate and their ratio (emulated / plain; above 1 means the emulator is
faster than the naive loop, as its blocked, vectorised kernels can be).

The Mmad cases are single instructions of the sizes a Matmul base block issues (128 x 128 x 256 and
128 x 256 x 64, L0A/L0B/L0C-sized), repeated; they include unpacking the fractal layouts and writing L0C.
The plain loop is the textbook triple loop over float matrices. Add is one 8192-element float instruction
(the count form), repeated; the plain loop is `z[i] = x[i] + y[i]`.

Not a timed test: the figures depend on the machine and its load (use --scale to run longer).

Usage: python benchmarks/sim_throughput.py [--scale N] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_bridge.sim import build, run  # noqa: E402

SOURCE = Path(__file__).resolve().parent / "sim_throughput.asc"


def measure(scale: int = 1) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="kgen-throughput-") as tmp:
        res = build([SOURCE], output=Path(tmp) / "throughput")
        if not res.ok:
            raise SystemExit("build failed:\n" + res.log[-3000:])
        r = run(res.binary, [str(scale)], cwd=tmp, timeout=600)
        if r.returncode != 0:
            raise SystemExit(f"run failed (exit {r.returncode}):\n{r.stderr[-3000:]}")
    rows = []
    for line in r.stdout.splitlines():
        if line.startswith("RESULT "):
            _, name, work, emu, plain = line.split()
            work, emu, plain = float(work), float(emu), float(plain)
            unit = "MAC/s" if name.startswith("mmad") else "elements/s"
            rows.append({"name": name, "unit": unit, "work": work, "emulated_s": emu, "plain_s": plain,
                         "emulated_rate": work / emu, "plain_rate": work / plain, "ratio": plain / emu})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=1, help="repeat every measurement N times as often")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = measure(args.scale)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'case':<28} {'unit':<11} {'emulated':>11} {'plain loop':>11} {'ratio':>7}")
    for x in rows:
        print(f"{x['name']:<28} {x['unit']:<11} {x['emulated_rate']:>11.3g} {x['plain_rate']:>11.3g} {x['ratio']:>7.2f}")
    print(f"(ratio = emulated rate / plain C++ loop rate; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
