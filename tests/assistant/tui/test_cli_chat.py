"""`kgen chat` on the command line: mistakes are one line and exit status 2, before any screen is drawn."""
from __future__ import annotations

import subprocess
import sys


def _kgen(*args: str, env_dir) -> subprocess.CompletedProcess:
    import os

    env = dict(os.environ, KGEN_DATA_DIR=str(env_dir))
    return subprocess.run([sys.executable, "-m", "assistant.cli", "chat", *args], capture_output=True, text=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL)


def test_bad_flags_are_one_line_errors(tmp_path):
    for args, message in [(("--llm", "localhost:8000"), "--llm takes an endpoint URL"),
                          (("--llm", "http://127.0.0.1:1/v1", "--offline"), "contradict"),
                          (("--resume", "nosuch"), "no session 'nosuch'")]:
        r = _kgen(*args, env_dir=tmp_path)
        assert r.returncode == 2, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("kgen: error: ") and message in lines[0], r.stderr


def test_help_names_the_options(tmp_path):
    r = _kgen("--help", env_dir=tmp_path)
    assert r.returncode == 0
    for opt in ("--resume", "--llm", "--offline", "--output"):
        assert opt in r.stdout
