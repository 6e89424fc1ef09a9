#!/usr/bin/env python3
"""The hand-written implicit-GEMM convolution against the drafter's convolution, modelled on the emulator.

benchmarks/implicit_gemm_conv/ is a hand-written op project (team-written, not drafted): conv2d 3 x 3 (stride 1, no
padding, bias) -> mish -> mish as a MIX kernel on the basic cube API. Its vector cores write each input row as a 5HD
record to the workspace; its cube cores keep the weight in L1 as L0A fractals, rotate kh input rows through L1,
build the im2col fractals of L0B with 2-D LoadData (at stride 1, 16 neighbouring output positions of one tap are one
512-byte run of a 5HD record), accumulate C[OC, positions] in L0C and Fixpipe it straight into y (NCHW); the vector
cores then apply mish twice in place, group of rows by group of rows (cross-core flags). The drafter generalises it
as its template conv_igemm (docs/drafter.md, "On the cube: implicit GEMM") where it is modelled faster, and writes
the whole im2col matrix to GM first elsewhere (a case of few output rows a cube core, such as --case small).

For every case of the project's spec (or --case), prints both kernels' modelled times, the modelled eager time and
the speedups: `kgen bench --profile` on the project, `kgen generate --offline --profile` on the same spec.
Model gaps that flatter the hand-written kernel (docs/performance-model.md): cross-core flag waits are not charged,
Fixpipe's GM writes are not counted, and its cube-core blocks share the vector cores' 48 slots (the same gaps flatter
the drafted implicit GEMM).

Usage: python benchmarks/implicit_gemm_conv.py [--case ID ...] [--json]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent / "implicit_gemm_conv"


def _run(cmd: list[str]) -> dict:
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"{' '.join(cmd[:3])} printed no report: {(p.stderr or p.stdout).strip()[-400:]}")


def _cases(report: dict) -> dict[str, dict]:
    """case id -> its status and modelled figures."""
    out = {}
    for c in report.get("cases", []):
        perf = c.get("performance") or {}
        out[c["case_id"]] = {"status": c["status"], "us": perf.get("modelled_us"), "eager_us": perf.get("eager_us"),
                             "bound": perf.get("bound")}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", action="append", default=[], help="only this case id (repeatable)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    spec = PROJECT / "kgen-task.toml"
    mine: dict[str, dict] = {}
    for picks in ([["--case", c] for c in args.case] or [[]]):   # (kgen bench takes one --case)
        mine.update(_cases(_run(["kgen", "bench", str(PROJECT), "--profile", "--json", *picks])))
    with tempfile.TemporaryDirectory() as tmp:
        drafted = _cases(_run(["kgen", "generate", str(spec), "--offline", "--profile", "--json", "-o",
                               str(Path(tmp) / "drafted"), "--force"]))
    rows = []
    for cid, m in mine.items():
        d = drafted.get(cid, {})
        rows.append({"case": cid, "implicit_gemm": m, "drafted": d,
                     "ratio": (d["us"] / m["us"]) if d.get("us") and m.get("us") else None})
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'case':8s} {'status':7s} {'implicit us':>12s} {'drafted us':>10s} {'eager us':>9s} {'speedup':>8s} "
          f"{'drafted sp.':>10s} {'gain':>6s}  bound")
    for r in rows:
        m, d = r["implicit_gemm"], r["drafted"]
        sp = m["eager_us"] / m["us"] if m.get("us") and m.get("eager_us") else float("nan")
        dsp = d["eager_us"] / d["us"] if d.get("us") and d.get("eager_us") else float("nan")
        print(f"{r['case']:8s} {m['status']:7s} {m['us'] or float('nan'):12.1f} {d.get('us') or float('nan'):10.1f} "
              f"{m['eager_us'] or float('nan'):9.1f} {sp:7.2f}x {dsp:9.2f}x {r['ratio'] or float('nan'):5.2f}x  {m['bound']}")


if __name__ == "__main__":
    main()
