"""Run one candidate in an isolated child process with time and memory limits.

``run_isolated`` is the one candidate function every executor calls (a local process pool's threads,
or a Ray task on any node): a fresh ``python -m agent_graph.evaluate.candidate`` in its own session and
work folder (its TMPDIR too, so everything it leaves goes with the folder), an address-space limit, a
wall-clock limit (the whole process group is killed past it). A crash or hang becomes a result, never an
exception; a transient failure (the child killed from outside, a build killed by load) is retried once;
the work folder is always removed.
"""
from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from agent_graph.evaluate.types import CandidateJob, CandidateResult
from agent_graph.settings import child_env

TRANSIENT_MARKERS = ("killed by signal 9", "signal 9", "sigkill", "resource temporarily unavailable",
                     "cannot allocate memory", "virtual memory exhausted", "no space left")
TAIL_CHARS = 400
try:
    _LIBC = ctypes.CDLL(None)   # loaded here, not in the forked child (dlopen after fork can deadlock)
except OSError:
    _LIBC = None


def run_isolated(job_dict: dict) -> dict:
    """CandidateJob dict in, CandidateResult dict out (plain data: it crosses Ray's boundary as is)."""
    job = CandidateJob.from_dict(job_dict)
    attempts, res = 0, None
    while attempts <= job.limits.retries:
        attempts += 1
        res, transient = _attempt(job)
        if not transient:
            break
    res.attempts = attempts
    return res.to_dict()


def _attempt(job: CandidateJob) -> tuple[CandidateResult, bool]:
    work = Path(tempfile.mkdtemp(prefix="kgen-eval-"))
    t0 = time.monotonic()
    try:
        (work / "owner").write_text(str(os.getpid()))
        (work / "job.json").write_text(json.dumps(job.to_dict()))
        (work / "tmp").mkdir()
        env = {**os.environ, **child_env(), "TMPDIR": str(work / "tmp"), "PYTHONUNBUFFERED": "1",
               "PYTHONPATH": os.pathsep.join(p for p in (_root(), os.environ.get("PYTHONPATH", "")) if p)}
        with open(work / "log", "wb") as log:
            proc = subprocess.Popen([sys.executable, "-m", "agent_graph.evaluate.candidate", str(work / "job.json"),
                                     str(work / "result.json")], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True,
                                    preexec_fn=_limit(job.limits.memory_mb))
            with _LIVE_LOCK:
                _LIVE.add(proc)
            try:
                rc = proc.wait(timeout=job.limits.candidate_seconds)
                timed_out = False
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                rc, timed_out = proc.wait(), True
            except BaseException:          # Ctrl-C / SIGTERM of the parent: the child goes with it
                _kill_group(proc)
                proc.wait()
                raise
            finally:
                with _LIVE_LOCK:
                    _LIVE.discard(proc)
        _kill_group(proc)                  # grandchildren left behind by a crashed child
        seconds = round(time.monotonic() - t0, 3)
        out = work / "result.json"
        if out.is_file() and not timed_out:
            res = CandidateResult.from_dict(json.loads(out.read_text()))
            return res, _transient_result(res)
        res = _failed(job, seconds)
        if timed_out:
            res.outcome, res.message = "timeout", f"the candidate ran past its {job.limits.candidate_seconds:g} s limit"
            res.error_class = "runtime"
            return res, False
        tail = _tail(work / "log")
        res.outcome, res.error_class = "crashed", "runtime"
        res.message = (f"the candidate's process died ({_status(rc)})" + (f": {tail}" if tail else ""))[:TAIL_CHARS]
        return res, rc in (-signal.SIGKILL, 137) or any(m in tail.lower() for m in TRANSIENT_MARKERS)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _failed(job: CandidateJob, seconds: float) -> CandidateResult:
    t = job.task
    return CandidateResult(task=t.name, sample=job.sample, generator=job.generator, level=t.level, category=t.category,
                           outcome="crashed", stage="generate", cases_total=t.cases, seconds=seconds)


def _transient_result(res: CandidateResult) -> bool:
    text = (res.message + " " + str(res.diagnostics.get("first", ""))).lower()
    return res.stage == "compile" and any(m in text for m in TRANSIENT_MARKERS)


def _limit(memory_mb: int):
    def apply() -> None:
        _die_with_parent()
        if memory_mb > 0:
            b = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return apply


def _die_with_parent() -> None:
    """Linux: the child gets SIGKILL when the thread that started it goes (the run killed with kill -9)."""
    try:
        _LIBC.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except AttributeError:
        pass


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _status(rc: int) -> str:
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit status {rc}"


def _tail(log: Path) -> str:
    try:
        lines = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return ""
    return " ".join(lines[-1].split())[-TAIL_CHARS:] if lines else ""


def _root() -> str:
    """The folder holding the agent_graph package (a Ray worker on another node may not have it on sys.path)."""
    return str(Path(__file__).resolve().parents[2])


_LIVE: set[subprocess.Popen] = set()
_LIVE_LOCK = threading.Lock()


def kill_all() -> None:
    """Kill every candidate child this process started and has not reaped (Ctrl-C of the run)."""
    with _LIVE_LOCK:
        procs = list(_LIVE)
    for p in procs:
        _kill_group(p)


def sweep_stale() -> None:
    """Remove the work folders of candidates whose eval process is gone (a run killed with kill -9)."""
    for d in Path(tempfile.gettempdir()).glob("kgen-eval-*"):
        try:
            owner = int((d / "owner").read_text())
            os.kill(owner, 0)
        except ProcessLookupError:
            shutil.rmtree(d, ignore_errors=True)
        except (OSError, ValueError):
            continue
