"""What an NPUKernelBench binding (validation/pybind.cpp) does around the kernel, kgen bench does too.

An op without outputs writes one of its inputs; the task's binding
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


def test_outputs_the_binding_zero_fills_start_at_zero(tmp_path):
    """A binding that zero-fills the output before the kernel (GroupedMatmulSliceK: `result.fill_(0.0f)`)
    lets a kernel leave parts of it unwritten. Task npukb_half_write (ours) writes only the first half of y;
    the reference is x's first half then zeros. Without the binding, outputs start as 0xCD bytes (the op
    harness poisons them; aclrtMalloc itself hands out zeros), so the same kernel fails on the unwritten half."""
    import shutil

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    task = ROOT / "tests" / "data" / "tasks" / "npukb_half_write"
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(task), "--json"], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    assert [c["status"] for c in json.loads(r.stdout)["cases"]] == ["pass", "pass"]
    bare = tmp_path / "npukb_half_write"
    shutil.copytree(task, bare)
    (bare / "validation" / "pybind.cpp").unlink()
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(bare), "--json"], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=600)
    cases = json.loads(r.stdout)["cases"]
    assert [c["status"] for c in cases] == ["fail", "fail"], cases
    assert cases[0]["outputs"][0]["first_mismatch"] == [1024], cases[0]["outputs"][0]
