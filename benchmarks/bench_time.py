"""Time of `kgen bench` on a task: cold (empty build cache) and warm (builds cached by content).

    python benchmarks/bench_time.py [TASK] [--project DIR]

Default TASK: the team-written NPUKernelBench-format task tests/data/tasks/npukb_scaled_add (3 cases,
3 dtype builds). Pass a level-1 NPUKernelBench task (e.g. .../tasks/level1/Math/AddCustom, 5 cases)
for the issue's figure. Goal: warm under 10 s on this 2-core machine.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(task: str, extra: list[str], env: dict) -> tuple[float, int, str]:
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", task, *extra], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    return time.monotonic() - t0, r.returncode, (r.stdout.strip().splitlines() or [""])[-1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("task", nargs="?", default=str(ROOT / "tests/data/tasks/npukb_scaled_add"))
    ap.add_argument("--project")
    a = ap.parse_args()
    extra = ["--project", a.project] if a.project else []
    env = {**os.environ, "KGEN_CACHE_DIR": tempfile.mkdtemp(prefix="kgen-bench-cache-")}
    cold, rc1, last1 = run(a.task, extra, env)
    warm, rc2, last2 = run(a.task, extra, env)
    print(f"task: {a.task}")
    print(f"cold (PCH + builds): {cold:6.1f} s   exit {rc1}   {last1}")
    print(f"warm (builds cached): {warm:6.1f} s   exit {rc2}   {last2}")
    print(f"warm / goal (10 s): {warm / 10:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
