"""Turn sweep results of NPUKernelBench golden answers into the status table of docs/npukernelbench.md.

    python benchmarks/npukernelbench_doc.py TASKS_DIR RESULTS.jsonl [RESULTS.jsonl ...] [--notes NOTES.json] > table.md

TASKS_DIR is the NPUKernelBench ``tasks`` folder (only its level1/level2 task names are read).
Each RESULTS line is one ``kgen bench TASK --json`` summary as benchmarks/npukernelbench_answers.py and
the sweep script write them: {"task", "compiled", "correct", "cases", "seconds", "reason"}; a later
file (or line) for the same task replaces an earlier one, so re-runs after a fix are listed last.
NOTES maps a task ("level2/Activation/Gelu") to {"status": ..., "reason": ...} for verdicts a person
confirmed by reading the answer (answer-broken) or the emulator (unsupported: a missing kernel API).

Status: pass (every case run passed), fail (an emulator or harness gap: the reason says which),
answer-broken (the published answer itself is wrong for the 910B), unsupported (outside what the
emulator models), no answer (the task ships none), not run (no result yet).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load_results(files: list[Path]) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    for f in files:
        for line in f.read_text().splitlines():
            line = line.strip()
            if line:
                r = json.loads(line)
                rows[r["task"]] = r
    return rows


def verdict(row: dict | None, note: dict | None) -> tuple[str, str]:
    if note:
        return note["status"], note["reason"]
    if row is None:
        return "not run", ""
    reason = " ".join(str(row.get("reason", "")).split())
    if any(m in reason for m in ("No space left on device", "No usable temporary directory", "module.py: /root/.pyenv/versions/3.11.7/lib/python3.11/pathlib")):
        return "not run", "the sweep's run hit a full disk; re-run"
    if row.get("correct"):
        return "pass", ""
    if "unsupported:" in reason:
        return "unsupported", reason
    return "fail", reason


def table(tasks_dir: Path, rows: dict[str, dict], notes: dict[str, dict]) -> str:
    names = sorted("/".join(d.parts[-3:]) for lv in ("level1", "level2") for d in (tasks_dir / lv).glob("*/*") if d.is_dir())
    out = ["| task | status | cases | reason |", "|---|---|---|---|"]
    counts: dict[str, int] = {}
    for name in names:
        row = rows.get(name)
        status, reason = verdict(row, notes.get(name))
        counts[status] = counts.get(status, 0) + 1
        cases = row.get("cases", "") if row else ""
        reason = reason.replace("|", "\\|")[:220]
        out.append(f"| {name} | {status} | {cases} | {reason} |")
    summary = ", ".join(f"{counts[k]} {k}" for k in ("pass", "fail", "answer-broken", "unsupported", "no answer", "not run") if k in counts)
    return f"{len(names)} tasks: {summary}.\n\n" + "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("tasks", type=Path)
    ap.add_argument("results", type=Path, nargs="+")
    ap.add_argument("--notes", type=Path)
    a = ap.parse_args()
    missing = [p for p in [a.tasks, *a.results, *([a.notes] if a.notes else [])] if not p.exists()]
    if missing:
        print(f"kgen: error: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    notes = json.loads(a.notes.read_text()) if a.notes else {}
    sys.stdout.write(table(a.tasks, load_results(a.results), notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
