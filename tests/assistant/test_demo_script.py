"""Issue 22 item 7: the README's main command, ``bash scripts/demo.sh``, says what it is doing before each
step and lets pip show its progress (it was silent for minutes: ``pip -q ... >/dev/null``).

The script runs for real with stand-ins for ``python3`` and ``kgen`` first on PATH (a real pip install
here would replace the environment's kgen): they log their arguments and print a line, which must reach
the user."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _stand_ins(tmp_path: Path) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    (bin_dir / "python3").write_text(f'#!/bin/sh\necho "python3 $*" >> "{log}"\n'
                                     'if [ "$1" = "-c" ]; then exit 1; fi\n'      # torch is not installed yet
                                     'echo "pip output: $*"\n')
    (bin_dir / "kgen").write_text(f'#!/bin/sh\necho "kgen $*" >> "{log}"\necho "kgen output"\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    return bin_dir


def test_demo_says_each_step_and_shows_pip_progress(tmp_path):
    bin_dir = _stand_ins(tmp_path)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    r = subprocess.run(["bash", str(ROOT / "scripts" / "demo.sh")], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    torch_step = next(i for i, line in enumerate(lines) if line.startswith("==> installing torch 2.13.0"))
    assert lines[torch_step + 1] == "pip output: -m pip install --progress-bar on torch==2.13.0"
    kgen_step = next(i for i, line in enumerate(lines) if line.startswith("==> installing kgen"))
    assert lines[kgen_step + 1] == "pip output: -m pip install --progress-bar on -e ."
    gen_step = next(i for i, line in enumerate(lines) if line.startswith("==> generating softmax"))
    assert lines[gen_step + 1] == "kgen output"
    calls = (tmp_path / "calls.log").read_text().splitlines()
    assert not any(" -q" in c for c in calls), calls
