"""Shared by the kgen eval tests: run ``kgen eval`` as a real process and read its outputs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.terminal import sigint_default

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data"
SUITE6 = DATA / "eval" / "suite6.txt"


def env(tmp: Path, **extra: str) -> dict[str, str]:
    e = {**os.environ, "KGEN_DATA_DIR": str(tmp / "kgen-data"), "KGEN_AGENT__RETRIEVE": "false",
         "PYTHONPATH": str(ROOT), **extra}
    e.pop("KGEN_LLM_URL", None)
    return e


def kgen(tmp: Path, *args: str, timeout: float = 600, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], cwd=ROOT, env=env(tmp, **extra),
                          capture_output=True, text=True, timeout=timeout)


def popen(tmp: Path, *args: str, **extra: str) -> subprocess.Popen:
    """``kgen`` as a process of its own, started as from a terminal (Ctrl-C reaches it: tests/terminal.py)."""
    return subprocess.Popen([sys.executable, "-m", "assistant.cli", *args], cwd=ROOT, env=env(tmp, **extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=sigint_default)


def summary(out: Path) -> dict:
    """summary.json without what names the folder it was written to."""
    d = json.loads((out / "summary.json").read_text())
    d.pop("output", None)
    return d


def results(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
