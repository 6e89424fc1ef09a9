"""Step-debugging an emulator program with gdb (``kgen sim debug``).

The emulator runs each block (core) of a launch on its own thread, with its block index in the
thread-local ``block_idx``: gdb's stop hook prints it, so a breakpoint on a kernel line says which
emulated core stopped there. The program is built with debug info at -O0 (every kernel line a stop),
and gdb runs inside the same sandbox as ``kgen sim run`` (the program is the user's code all the same).
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from bench_bridge import sandbox

DEBUG_FLAGS = ["-O0"]
"""Added to the emulator's flags for a debug build: no inlining, every kernel line a breakpoint location."""

STOP_HOOK = """set pagination off
set confirm off
set breakpoint pending on
set print thread-events off
define hook-stop
printf "kgen: stopped in emulated core %ld of %ld\\n", block_idx, block_num
end
"""
"""gdb commands run first: the stop hook naming the emulated core (``block_idx``/``block_num``: launch.h)."""


class DebuggerUnavailable(Exception):
    """No gdb on this machine (one line for the user)."""


def gdb_path() -> str:
    path = shutil.which("gdb")
    if path is None:
        raise DebuggerUnavailable("gdb is not installed (apt-get install gdb)")
    return path


def debug(binary: str | Path, args: list[str] = (), breaks: list[str] = (), batch: bool = False, cwd: str | Path | None = None,
          reads: list[Path] = (), timeout: float | None = None) -> subprocess.CompletedProcess | int:
    """Run ``binary`` under gdb with a breakpoint at each of ``breaks`` (``FILE:LINE`` or ``LINE``). Interactive
    (the terminal is gdb's) unless ``batch``: then it runs to the first stop, prints where (the core, the
    backtrace, the locals), and ends; the captured output is returned."""
    gdb = gdb_path()
    binary = Path(binary).resolve()
    tmp = Path(tempfile.mkdtemp(prefix="kgen-debug-"))
    script = tmp / "kgen.gdb"
    lines = [STOP_HOOK] + [f"break {b}" for b in breaks]
    if batch:
        lines += ["run", "backtrace 3", "info locals", "kill", "quit"]
    script.write_text("\n".join(lines) + "\n")
    work = Path(cwd or Path.cwd()).resolve()
    policy = sandbox.SandboxPolicy(read_only=[binary.parent, Path(gdb).parent, *map(Path, reads)],
                                   writable=[work, tmp], max_procs=256)
    conf = sandbox.confine(policy, work)
    argv = conf.argv([gdb, "-q", "-nx", *(["-batch"] if batch else []), "-x", str(script), "--args", str(binary), *args])
    try:
        if batch:
            return subprocess.run(argv, cwd=str(work), capture_output=True, text=True, errors="replace", timeout=timeout,
                                  preexec_fn=conf.preexec)
        return subprocess.call(argv, cwd=str(work), preexec_fn=conf.preexec)
    finally:
        conf.close()
        shutil.rmtree(tmp, ignore_errors=True)
