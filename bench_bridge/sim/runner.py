"""Run an emulator executable in a child process with limits, and collect what it reported.

The child gets a wall-clock limit (killed past it), a CPU-time and address-space limit, no network
where the OS allows it (a private network namespace via ``unshare -n``), its own process group,
and ``KGEN_DIAG_FILE`` so run-time findings come back as typed diagnostics.
"""
from __future__ import annotations

import functools
import os
import shutil
import resource
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge.sim.diagnostics import Diagnostic, read_runtime

EXIT_KERNEL_ERROR = 3


@dataclass
class RunResult:
    """Outcome of one run: ``ok`` means exit status 0, no error diagnostic, no time-out."""

    returncode: int
    stdout: str
    stderr: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timed_out: bool = False
    seconds: float = 0.0
    trace_file: Path | None = None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not any(d.severity == "error" for d in self.diagnostics)


@functools.lru_cache(maxsize=1)
def _no_network_prefix() -> tuple[str, ...]:
    """``unshare -n --`` when this OS lets us drop the network for a child (probed once), else nothing."""
    if os.environ.get("KGEN_SANDBOX_NET") == "1":  # opt out: allow the network
        return ()
    exe = shutil.which("unshare")
    if not exe:
        return ()
    for prefix in ((exe, "-n", "--"), (exe, "-rn", "--")):
        try:
            if subprocess.run([*prefix, "true"], capture_output=True, timeout=10).returncode == 0:
                return prefix
        except (OSError, subprocess.SubprocessError):
            continue
    return ()


def _limits(cpu_seconds: int, memory_bytes: int):
    def apply() -> None:
        os.setsid()
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def run(
    binary: str | Path,
    args: list[str] = (),
    cwd: str | Path | None = None,
    timeout: float = 60.0,
    memory_mb: int = 8192,
    env: dict[str, str] | None = None,
    trace: bool = False,
) -> RunResult:
    """Run ``binary``; a crash, hang or blown limit becomes a diagnostic, never an exception."""
    # absolute, symlinks kept: a venv's python is a symlink to the base interpreter, and resolving it would
    # run the child outside the venv (without the venv's packages)
    binary = Path(os.path.abspath(binary))
    tmp = Path(tempfile.mkdtemp(prefix="kgen-run-"))
    diag_file = tmp / "diag.jsonl"
    trace_file = tmp / "trace.jsonl" if trace else None
    child_env = {**os.environ, **(env or {}), "KGEN_DIAG_FILE": str(diag_file)}
    if trace_file:
        child_env["KGEN_TRACE_FILE"] = str(trace_file)
    t0 = time.monotonic()
    timed_out = False
    proc = subprocess.Popen(
        [*_no_network_prefix(), str(binary), *args], cwd=str(cwd or Path.cwd()), env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, errors="replace", preexec_fn=_limits(int(timeout) + 5, memory_mb * 1024 * 1024),
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    seconds = time.monotonic() - t0
    diags = read_runtime(diag_file)
    if not trace_file:
        shutil.rmtree(tmp, ignore_errors=True)
    rc = proc.returncode
    if timed_out:
        diags.append(Diagnostic("error", f"the program did not finish within {timeout:g} s (a hang, a deadlock or an endless loop)",
                                str(binary), 0, 0, "timeout", "runtime"))
    elif rc is not None and rc < 0 and not any(d.severity == "error" for d in diags):
        sig = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        diags.append(Diagnostic("error", f"the program was killed by {sig} (a resource limit or a crash)", str(binary), 0, 0,
                                "killed", "runtime"))
    return RunResult(rc if rc is not None else -1, out, err, diags, timed_out, seconds, trace_file)
