"""Run an emulator executable in a child process with limits, and collect what it reported.

The child gets a wall-clock limit (killed past it), a CPU-time and address-space limit, its own process
group, and ``KGEN_DIAG_FILE`` so run-time findings come back as typed diagnostics. It runs inside the
sandbox of ``bench_bridge.sandbox``: it may write only its working directory, the runner's report folder
and the ``writes`` it is given; read only the system, the Python environment, kgen, its executable's
folder and the ``reads`` it is given; no network; a process-count limit. Secrets in the environment
(``*KEY*``, ``*TOKEN*``, ``*SECRET*``, ``*PASSWORD*``) are not passed on.
"""
from __future__ import annotations

import os
import re
import shutil
import resource
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge import sandbox
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


SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL", re.I)


def _limits(cpu_seconds: int, memory_bytes: int, conf: sandbox.Confinement):
    def apply() -> None:
        os.setsid()
        conf.preexec()
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
    reads: list[Path] = (),
    writes: list[Path] = (),
) -> RunResult:
    """Run ``binary`` sandboxed; a crash, hang or blown limit becomes a diagnostic, never an exception.

    ``cwd`` (default: the current directory) is the child's work folder, writable like ``writes``;
    ``reads`` are the task files it may read. Raises :class:`bench_bridge.sandbox.SandboxUnavailable`
    when this machine cannot sandbox and the user did not opt out (``KGEN_NO_SANDBOX=1``)."""
    # absolute, symlinks kept: a venv's python is a symlink to the base interpreter, and resolving it would
    # run the child outside the venv (without the venv's packages)
    binary = Path(os.path.abspath(binary))
    tmp = Path(tempfile.mkdtemp(prefix="kgen-run-"))
    diag_file = tmp / "diag.jsonl"
    trace_file = tmp / "trace.jsonl" if trace else None
    child_env = {k: v for k, v in os.environ.items() if not SECRET_NAME.search(k)}
    child_env.update({**(env or {}), "KGEN_DIAG_FILE": str(diag_file)})
    if trace_file:
        child_env["KGEN_TRACE_FILE"] = str(trace_file)
    work = Path(os.path.abspath(cwd or Path.cwd()))
    exe_dirs = [binary.parent]
    if (binary.parent.parent / "pyvenv.cfg").is_file():   # an interpreter of a venv: the venv is its environment
        exe_dirs.append(binary.parent.parent)
    policy = sandbox.SandboxPolicy(read_only=[*exe_dirs, *map(Path, reads)], writable=[work, tmp, *map(Path, writes)])
    try:
        conf = sandbox.confine(policy, work)
    except sandbox.SandboxUnavailable:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if conf.prefix:   # inside, /tmp is read-only: the run's own folder is the temp folder
        child_env["TMPDIR"] = str(tmp)
        # torch creates its compile cache under /tmp/torchinductor_<user> when a reference first touches it
        child_env["TORCHINDUCTOR_CACHE_DIR"] = str(tmp / "torchinductor")
    t0 = time.monotonic()
    timed_out = False
    try:
        proc = subprocess.Popen(
            conf.argv([str(binary), *args]), cwd=str(work), env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, errors="replace", preexec_fn=_limits(int(timeout) + 5, memory_mb * 1024 * 1024, conf),
        )
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)   # bwrap; --die-with-parent takes the sandbox's pid namespace down
            out, err = proc.communicate()
        procs_limited = conf.limit_hit()
    finally:
        conf.close()
    seconds = time.monotonic() - t0
    diags = read_runtime(diag_file)
    if not trace_file:
        shutil.rmtree(tmp, ignore_errors=True)
    rc = proc.returncode
    if conf.prefix and rc is not None and rc > 128 and (rc - 128) in signal.Signals._value2member_map_:
        rc = 128 - rc    # bubblewrap reports a child killed by signal N as exit status 128 + N: give it back as -N
    if procs_limited:
        diags.append(Diagnostic("error", f"the program tried to run more than {conf.max_procs} processes or threads at once "
                                         "(the sandbox's process limit: a fork bomb?)", str(binary), 0, 0, "process-limit", "runtime"))
    if timed_out:
        diags.append(Diagnostic("error", f"the program did not finish within {timeout:g} s (a hang, a deadlock or an endless loop)",
                                str(binary), 0, 0, "timeout", "runtime"))
    elif rc is not None and rc < 0 and not any(d.severity == "error" for d in diags):
        sig = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        diags.append(Diagnostic("error", f"the program was killed by {sig} (a resource limit or a crash)", str(binary), 0, 0,
                                "killed", "runtime"))
    return RunResult(rc if rc is not None else -1, out, err, diags, timed_out, seconds, trace_file)
