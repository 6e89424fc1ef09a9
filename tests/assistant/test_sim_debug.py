"""``kgen sim debug``: a kernel-launch program built with debug info and run under gdb (in the sandbox); a
breakpoint on a kernel line stops in the emulated core running it, and the stop says which core."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add" / "add.asc"
ADD_LINE = next(i for i, ln in enumerate(ADD.read_text().splitlines(), 1) if "AscendC::Add(" in ln)


def kgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", "sim", "debug", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb is not installed")
def test_a_breakpoint_on_a_kernel_line_stops_in_an_emulated_core():
    r = kgen(str(ADD), "--break", str(ADD_LINE), "--batch")
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"kgen: stopped in emulated core (\d+) of (\d+)", r.stdout)
    assert m and 0 <= int(m.group(1)) < int(m.group(2)) == 8, r.stdout     # add.asc launches 8 blocks
    assert f"add.asc:{ADD_LINE}" in r.stdout and "AscendC::Add(z, x, y, TILE);" in r.stdout   # -O0: the very line
    assert "in KernelAdd::Process" in r.stdout            # the backtrace
    assert re.search(r"^x = \{ptr_ = ", r.stdout, re.M)    # the locals: the kernel's LocalTensors


def test_batch_without_a_breakpoint_is_a_one_line_error():
    r = kgen(str(ADD), "--batch")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0
    assert r.stderr.startswith("kgen: error: --batch runs to the first breakpoint")


def test_a_malformed_breakpoint_is_a_one_line_error():
    r = kgen(str(ADD), "--break", "Compute", "--batch")
    assert r.returncode == 2 and r.stderr.strip() == "kgen: error: --break Compute: give a LINE or FILE:LINE"
