"""The ``kgen`` command line as a user meets it: help, usage errors, and the emulator commands."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def kgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True, text=True, cwd=cwd or ROOT)


def test_help_lists_commands():
    r = kgen("--help")
    assert r.returncode == 0
    assert "sim" in r.stdout


def test_unknown_command_is_one_line_exit_2():
    r = kgen("frobnicate")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "unknown command 'frobnicate'" in r.stderr


def test_missing_arguments_exit_2():
    r = kgen("sim", "build")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0


def test_missing_source_file_is_a_clear_error():
    r = kgen("sim", "run", "no/such/kernel.asc")
    assert r.returncode == 2
    assert "no such file: no/such/kernel.asc" in r.stderr
    assert "Traceback" not in r.stderr


def test_sim_run_sample_kernel_passes():
    r = kgen("sim", "run", "examples/add/add.asc")
    assert r.returncode == 0, r.stderr
    assert "PASS" in r.stdout


def test_sim_build_writes_binary_and_reports_compile_errors(tmp_path):
    out = tmp_path / "add"
    r = kgen("sim", "build", "examples/add/add.asc", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.exists()
    run = subprocess.run([str(out)], capture_output=True, text=True)
    assert "PASS" in run.stdout

    bad = tmp_path / "bad.asc"
    bad.write_text('#include "kernel_operator.h"\n__global__ __aicore__ void k(GM_ADDR x) {\n  AscendC::Softmax(x);\n}\nint main() { return 0; }\n')
    r = kgen("sim", "build", str(bad), "-o", str(tmp_path / "bad"))
    assert r.returncode == 1
    assert f"{bad}:3:" in r.stderr
    assert "Softmax" in r.stderr
