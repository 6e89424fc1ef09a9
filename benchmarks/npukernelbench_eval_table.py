"""docs/npukernelbench.md's table from ``kgen eval`` runs of NPUKernelBench levels with ``--generator golden``.

    kgen eval NKB/tasks/level1 --generator golden --jobs 2 -o runs/level1
    python benchmarks/npukernelbench_eval_table.py runs/level1 [runs/level2 ...] --notes benchmarks/npukernelbench_notes.json

Each RUN is an eval output folder (its summary.json). NOTES maps a task ("level1/Math/Sasum") to
{"status", "reason"} for verdicts a person confirmed by reading the answer (answer-broken, unsupported);
a note replaces the status and the reason, the cases and the score stay the eval's.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def rows(summary: dict, notes: dict[str, dict]) -> list[str]:
    out = []
    for r in summary["per_task"]:
        note = notes.get(r["task"])
        if r["skipped"]:
            status, cases, score, reason = "no answer", "-", "-", r["message"]
        else:
            status = "pass" if r["correct"] else ("not tested" if r.get("error_class") == "harness" else "fail")
            cases, score, reason = f"{r['cases_passed']}/{r['cases']}", f"{r['score']:.1f}", r["message"]
        if note and status != "pass":
            status, reason = note["status"], note["reason"]
        reason = " ".join(str(reason).replace("|", "\\|").split())[:220]
        out.append(f"| {r['task']} | {status} | {cases} | {score} | {reason} |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=Path, nargs="+")
    ap.add_argument("--notes", type=Path)
    a = ap.parse_args()
    for p in [*a.runs, *([a.notes] if a.notes else [])]:
        if not p.exists():
            print(f"kgen: error: no such file or folder: {p}", file=sys.stderr)
            return 2
    notes = json.loads(a.notes.read_text()) if a.notes else {}
    for run in a.runs:
        s = json.loads((run / "summary.json").read_text())
        m = s["metrics"]
        levels = ", ".join(f"{lv} {row['score']:.2f} ({row['correct']}/{row['tasks']} correct)" for lv, row in s["levels"].items())
        print(f"{s['tasks']} tasks ({m['skipped']} without an answer): {m['correct']} correct on every case, "
              f"{m['compiled']} compiled; level scores {levels}; weighted score {s['weighted_score']}.\n")
        print("| task | status | cases | score | reason |\n|---|---|---|---|---|")
        print("\n".join(rows(s, notes)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
