"""`kgen bench` stopped by SIGTERM (an editor cancelling the job, `kill`) removes its work folder, which
holds every case's reference tensors: nothing is left behind in the temporary directory."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TASK = ROOT / "tests" / "data" / "tasks" / "spec_scaled_add" / "kgen-task.toml"


def test_sigterm_cleans_the_work_folder(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp), "KGEN_CACHE_DIR": str(tmp_path / "cache")}  # a cold cache: the build takes a while
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "bench", str(TASK)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(tmp.glob("kgen-bench-*")) and proc.poll() is None:
            time.sleep(0.05)
        assert list(tmp.glob("kgen-bench-*")), "bench never created its work folder"
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    assert not list(tmp.glob("kgen-bench-*"))
