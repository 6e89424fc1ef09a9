"""Child processes of kgen run with limits: a wall clock, memory, and no network where the OS allows."""
from __future__ import annotations

import socket
import sys

import pytest

from bench_bridge import sandbox
from bench_bridge.sim.runner import run

needs_sandbox = pytest.mark.skipif(sandbox.probe() is not None and not sandbox.opted_out(),
                                   reason=f"this machine cannot sandbox: {sandbox.probe()}")


@needs_sandbox
def test_child_has_no_network():
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    code = f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n    print('connected')\nexcept OSError as e:\n    print('refused', e)\n"
    r = run(sys.executable, ["-c", code], timeout=30)
    srv.close()
    assert "refused" in r.stdout and "connected" not in r.stdout


def test_hang_becomes_a_timeout_diagnostic():
    r = run(sys.executable, ["-c", "import time; time.sleep(60)"], timeout=1.5)
    assert r.timed_out and not r.ok
    assert r.diagnostics[-1].code == "timeout"


def test_memory_limit_stops_a_runaway_child():
    r = run(sys.executable, ["-c", "x = bytearray(3 * 1024**3); print('allocated')"], timeout=60, memory_mb=1024)
    assert "allocated" not in r.stdout and not r.ok


def test_a_symlinked_interpreter_runs_as_itself(tmp_path):
    # a venv's python is a symlink to the base interpreter: the reference worker must run as the venv's
    # python (its packages), so the runner must not resolve the link
    link = tmp_path / "venv-python"
    link.symlink_to(sys.executable)
    r = run(link, ["-c", "import sys; print(sys.executable)"], timeout=30)
    assert r.ok, r.stderr
    assert r.stdout.strip() == str(link)


def test_the_reference_worker_runs_in_this_interpreters_environment(tmp_path):
    # a python created as `python -m venv` sees the venv's site-packages only when started through its
    # own path; kgen starts the worker with sys.executable, which must stay the path it was given
    import subprocess
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    r = run(py, ["-c", "import sys; print(sys.prefix)"], timeout=30)
    assert r.ok, r.stderr
    assert r.stdout.strip() == str(venv)
