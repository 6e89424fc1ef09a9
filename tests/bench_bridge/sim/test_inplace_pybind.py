"""An NPUKernelBench op without outputs writes one of its inputs; the task's binding
(validation/pybind.cpp) says which by returning it (Gemm: `return c;`). kgen bench compares that input,
read back after the kernel, with the reference output. Task tests/data/tasks/npukb_inplace_axpy (ours):
y += alpha * x written into y, the second input; the reference is numpy-checkable y + alpha * x, and
comparing the first input x instead would fail every case."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TASK = ROOT / "tests" / "data" / "tasks" / "npukb_inplace_axpy"


def test_the_input_the_binding_returns_is_compared():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(TASK), "--json"], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    rep = json.loads(r.stdout)
    assert [c["status"] for c in rep["cases"]] == ["pass", "pass"], rep["cases"]
    assert all(c["outputs"][0]["name"] == "y" for c in rep["cases"])
    assert [c["outputs"][0]["total"] for c in rep["cases"]] == [3000, 77]
