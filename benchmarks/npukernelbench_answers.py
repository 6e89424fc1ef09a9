"""Bench the golden answers (answer/0) of NPUKernelBench tasks on the emulator and print a table.

    python benchmarks/npukernelbench_answers.py PATH_TO_NPUKernelBench/tasks [--level level1] [--filter REGEX] [--timeout 900] [--json OUT]

e.g. the level-3 sweep of docs/npukernelbench-level3.md: `--level level3`.

The NPUKernelBench checkout is fetched separately and never committed (its answers are CANN-licensed).
Each task runs `kgen bench TASK --json` in a child process; the table gives compiled / correct /
cases passed and, for failures, the first reason (build error, emulator rule, wrong values).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def first_reason(rep: dict) -> str:
    if not rep.get("compiled"):
        diags = [d for d in rep.get("build_diagnostics", []) if d.get("severity") == "error"]
        if diags:
            d = diags[0]
            return f"build: {Path(d.get('file', '')).name}:{d.get('line', 0)}: {d.get('message', '')}"[:160]
        return ("build: " + rep.get("message", ""))[:160]
    for c in rep.get("cases", []):
        if c.get("status") != "pass":
            return f"case {c.get('case_id')}: {c.get('message', '')}"[:160]
    return ""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--level", action="append", default=None, help="level1 / level2 / level3 (repeatable)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--case", help="bench only this case id of every task (the sweep of docs/npukernelbench.md uses 0)")
    ap.add_argument("--filter", help="regex on the task path (e.g. GMM/)")
    a = ap.parse_args()
    levels = a.level or ["level1", "level2"]
    dirs = sorted(d for lv in levels for d in (a.tasks / lv).glob("*/*") if (d / "validation" / "module.py").exists())
    if a.filter:
        dirs = [d for d in dirs if re.search(a.filter, str(d))]
    # the reference runs in a child process started in the task directory: it must find kgen's packages
    # even when kgen is not pip-installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    rows, results = [], []
    for d in dirs:
        t0 = time.monotonic()
        try:
            r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(d), "--json", "--timeout", "300"]
                               + (["--case", a.case] if a.case is not None else []),
                               capture_output=True, text=True, timeout=a.timeout, env=env, cwd=ROOT)
            try:
                rep = json.loads(r.stdout)
            except json.JSONDecodeError:
                rep = {"compiled": False, "correct": False, "cases": [], "message": (r.stderr.strip().splitlines() or ["no report"])[-1]}
        except subprocess.TimeoutExpired:
            rep = {"compiled": False, "correct": False, "cases": [], "message": f"timed out after {a.timeout:g} s"}
        secs = time.monotonic() - t0
        passed = sum(c.get("status") == "pass" for c in rep.get("cases", []))
        row = (f"{d.parent.parent.name}/{d.parent.name}/{d.name}", rep.get("compiled", False), rep.get("correct", False),
               f"{passed}/{len(rep.get('cases', []))}", f"{secs:.0f}s", first_reason(rep) or rep.get("message", ""))
        rows.append(row)
        results.append({"task": row[0], "compiled": row[1], "correct": row[2], "cases": row[3], "seconds": secs, "reason": row[5]})
        print(f"{row[0]:<42} compiled={'yes' if row[1] else 'no ':<3} correct={'yes' if row[2] else 'no ':<3} {row[3]:>7} {row[4]:>6}  {row[5]}",
              flush=True)
    n = len(rows)
    print(f"\n{sum(r[1] for r in rows)}/{n} compiled, {sum(r[2] for r in rows)}/{n} correct")
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
