"""The filesystem, network and process sandbox of every child that runs task or model code.

Rules enforced (docs/security.md has the threat model and how each rule was tested):

- **writes** only to the child's own work folders (``SandboxPolicy.writable``; the runner makes its
  report folder one and points ``TMPDIR`` at it) and a private, size-capped ``/dev/shm``; every other
  path fails (read-only, or absent on a read-only root);
- **reads** only the system (``/usr``, ``/lib*``, ``/bin``, a few named ``/etc`` files, CPU topology under
  ``/sys``), the Python environment, kgen's own package, and the paths the caller names (the task's
  files, the executable's build folder); nothing else of the user's: ``$HOME``, other projects and the
  host's ``/tmp`` do not exist inside;
- **no network** (a private network namespace: only its own loopback);
- **no new privileges** (bubblewrap sets ``PR_SET_NO_NEW_PRIVS``; every capability dropped; no nested
  user namespaces where bubblewrap supports ``--disable-userns``);
- **a process-count limit** (``max_procs`` tasks, threads included) so a fork bomb dies alone: a pids
  cgroup when kgen runs as root (Linux exempts uid 0 from ``RLIMIT_NPROC``), else ``RLIMIT_NPROC`` set
  *inside* the sandbox's fresh user namespace, where the kernel counts only that namespace's processes.

The mechanism is bubblewrap (``bwrap``): user, mount, pid, network, ipc, uts and cgroup namespaces.
It is probed once; where it cannot run, :func:`confine` raises :class:`SandboxUnavailable` with one
sentence saying why and how to opt out (``KGEN_NO_SANDBOX=1`` or ``--no-sandbox``).
"""
from __future__ import annotations

import functools
import itertools
import os
import shutil
import site
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge import settings as bench_settings

OPT_OUT_ENV = "KGEN_NO_SANDBOX"
DEFAULT_MAX_PROCS = max(512, 8 * (os.cpu_count() or 1))
TMP_BYTES = 256 * 1024 * 1024            # the private /dev/shm is RAM: cap it
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "passwd", "group",
             "nsswitch.conf", "hosts", "os-release", "debian_version", "fonts", "ssl/openssl.cnf")
SYS_READ = ("/sys/devices/system/cpu", "/sys/devices/system/node")   # CPU topology (OpenMP, BLAS)
_serial = itertools.count()


class SandboxUnavailable(RuntimeError):
    """This machine cannot sandbox task code and the user did not opt out; ``str`` is one sentence."""


@dataclass(frozen=True)
class SandboxPolicy:
    """What one child may touch besides the system and Python environment (see the module rules)."""

    read_only: list[Path] = field(default_factory=list)
    writable: list[Path] = field(default_factory=list)
    network: bool = False
    max_procs: int = DEFAULT_MAX_PROCS


def opted_out() -> bool:
    """True when the user turned the sandbox off: the ``bench.no_sandbox`` setting (``KGEN_NO_SANDBOX=1``,
    ``--no-sandbox``)."""
    return bench_settings.current().no_sandbox


def python_paths() -> list[Path]:
    """The interpreter's environment: prefixes and every sys.path entry (site-packages, .pth targets).

    Paths are kept as given, not resolved: a venv's python is a symlink whose path selects the venv."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(sys.executable)}
    # sys.path holds the working directory under `python -m` (a user's project, not the environment), and
    # PYTHONPATH may name anything: no entry that is, or holds, the working directory or $HOME
    user = [os.getcwd(), os.path.expanduser("~")]
    paths.update(p for p in sys.path if p and not any(_holds(os.path.abspath(p), u) for u in user))
    try:
        paths.update(site.getsitepackages())
    except AttributeError:
        pass
    user_site = site.getusersitepackages() if hasattr(site, "getusersitepackages") else None
    if user_site and os.path.isdir(user_site):   # pip --user packages: part of the Python environment
        paths.add(user_site)
    out = []
    for p in paths:
        p = os.path.abspath(p)
        if os.path.isdir(p) and p != "/" and not _is_temp_root(p):
            out.append(Path(p))
    return out


def kgen_paths() -> list[Path]:
    """kgen's own install: the folder that holds the ``bench_bridge`` package (a checkout or site-packages)."""
    return [Path(os.path.abspath(__file__)).parent]


def own_python_env() -> dict[str, str]:
    """Environment for a Python child that runs kgen's own modules (``python -m bench_bridge.tasks.worker``):
    ``PYTHONPATH`` starts with the folder holding this ``bench_bridge``, so the child imports the same kgen
    as its parent (a checkout run with ``python -m``, not the one an editable install points at, whose
    folder the sandbox does not mount). That folder's ``bench_bridge`` is readable: :func:`kgen_paths`."""
    root = str(kgen_paths()[0].parent)
    rest = os.environ.get("PYTHONPATH", "")
    return {"PYTHONPATH": os.pathsep.join(p for p in (root, rest) if p)}


def _holds(parent: str, p: str) -> bool:
    return p == parent or p.startswith(parent.rstrip("/") + "/")


def _is_temp_root(p: str) -> bool:
    return p in ("/tmp", "/var/tmp", os.path.expanduser("~"))


def _binds(policy: SandboxPolicy) -> list[str]:
    args: list[str] = []
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for d in SYS_READ:
        args += ["--ro-bind-try", d, d]
    args += ["--proc", "/proc", "--dev", "/dev", "--size", str(TMP_BYTES), "--tmpfs", "/tmp",
             "--size", str(TMP_BYTES), "--tmpfs", "/dev/shm"]
    mounts = [(Path(os.path.abspath(p)), False) for p in [*python_paths(), *kgen_paths(), *policy.read_only]]
    mounts += [(Path(os.path.abspath(p)), True) for p in policy.writable]
    seen: dict[Path, bool] = {}
    for p, rw in mounts:      # a path named writable anywhere is writable
        seen[p] = seen.get(p, False) or rw
    for p in sorted(seen, key=lambda q: (len(q.parts), str(q))):   # parents before children
        if str(p) == "/":
            continue
        args += ["--bind-try" if seen[p] else "--ro-bind-try", str(p), str(p)]
    # the sandbox's own root and /tmp hold only the mount points made above: read-only, so a write to
    # any other path fails instead of landing in a throw-away copy
    return [*args, "--remount-ro", "/tmp", "--remount-ro", "/"]


@functools.lru_cache(maxsize=1)
def _bwrap_flags() -> tuple[str, ...] | None:
    """bwrap's path and the hardening flags this version knows, or None when bwrap is missing."""
    exe = shutil.which("bwrap")
    if not exe:
        return None
    try:
        helptext = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    flags = [exe, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    if "--disable-userns" in helptext:
        flags.append("--disable-userns")
    return tuple(flags)


class _PidsCgroup:
    """A fresh pids cgroup (v2, or v1's pids hierarchy) under kgen's own, capped at ``max_procs`` tasks."""

    def __init__(self, base: Path, max_procs: int):
        self.dir = base / f"kgen-sandbox-{os.getpid()}-{next(_serial)}"
        self.dir.mkdir()
        try:
            if not (self.dir / "pids.max").exists():   # a cgroup without the pids controller
                raise OSError(f"{base}: no pids controller")
            (self.dir / "pids.max").write_text(str(max_procs))
        except OSError:
            self.dir.rmdir()
            raise

    def join(self) -> None:
        """Called in the child between fork and exec: the sandbox and all it starts live here."""
        with open(self.dir / "cgroup.procs", "w") as f:
            f.write(str(os.getpid()))

    def limit_hit(self) -> bool:
        try:
            for line in (self.dir / "pids.events").read_text().splitlines():
                if line.startswith("max ") and int(line.split()[1]) > 0:
                    return True
        except (OSError, ValueError, IndexError):
            pass
        return False

    def close(self) -> None:
        for _ in range(50):   # the last tasks of a killed sandbox may take a moment to be reaped
            try:
                self.dir.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)


def _cgroup_bases() -> list[Path]:
    """Where kgen could create a child pids cgroup: its own v1 pids cgroup, or its own v2 cgroup."""
    out = []
    try:
        own = {}
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, ctrls, path = line.split(":", 2)
            for c in ctrls.split(",") if ctrls else [""]:
                own[c] = path.lstrip("/")
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            mnt, fstype, opts = left.split()[4], right.split()[0], right.split()[-1]
            if fstype == "cgroup" and "pids" in opts.split(",") and "pids" in own:
                out.append(Path(mnt) / own["pids"])
            elif fstype == "cgroup2" and "" in own:
                out.append(Path(mnt) / own[""])
    except (OSError, ValueError, IndexError):
        pass
    return out


def _sweep(base: Path) -> None:
    """Remove the empty cgroups left by kgen processes that were killed before they could (SIGKILL)."""
    for d in base.glob("kgen-sandbox-*-*"):
        try:
            if not Path(f"/proc/{int(d.name.split('-')[2])}").exists():
                d.rmdir()
        except (OSError, ValueError, IndexError):
            continue


@functools.lru_cache(maxsize=1)
def _pids_cgroup_base() -> Path | None:
    for base in _cgroup_bases():
        _sweep(base)
        try:
            probe = _PidsCgroup(base, 8)
        except OSError:
            continue
        probe.close()
        return base
    return None


@functools.lru_cache(maxsize=1)
def probe() -> str | None:
    """None when this machine can sandbox children (tried once, for real); else why not, in a few words."""
    flags = _bwrap_flags()
    if flags is None:
        return "bubblewrap (bwrap) is not installed"
    if os.geteuid() == 0 and _pids_cgroup_base() is None:
        return "kgen runs as root and cannot create a pids cgroup, so no process-count limit can be enforced"
    if os.geteuid() != 0 and not shutil.which("prlimit"):
        return "prlimit (util-linux) is missing, so no process-count limit can be enforced"
    try:
        r = subprocess.run([*flags, *_binds(SandboxPolicy()), "true"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        return f"bwrap failed to start ({e})"
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        return f"bwrap cannot create namespaces here ({why})"
    return None


@dataclass
class Confinement:
    """How to start one sandboxed child: ``argv(cmd)``, ``preexec()`` in the child, ``close()`` after."""

    prefix: list[str]
    suffix: list[str] = field(default_factory=list)   # inside the sandbox, before the command (prlimit)
    cgroup: _PidsCgroup | None = None
    max_procs: int = 0

    def argv(self, cmd: list[str]) -> list[str]:
        return [*self.prefix, *self.suffix, *cmd]

    def preexec(self) -> None:
        if self.cgroup is not None:
            self.cgroup.join()

    def limit_hit(self) -> bool:
        return self.cgroup.limit_hit() if self.cgroup is not None else False

    def close(self) -> None:
        if self.cgroup is not None:
            self.cgroup.close()


@functools.lru_cache(maxsize=1)
def _warn_unconfined() -> None:
    print(f"kgen: warning: the sandbox is off ({OPT_OUT_ENV}=1 or --no-sandbox): task and model code runs with "
          "your full rights", file=sys.stderr)


def confine(policy: SandboxPolicy, cwd: Path) -> Confinement:
    """The confinement for one child started in ``cwd`` under ``policy``.

    Raises :class:`SandboxUnavailable` where the platform cannot sandbox and the user did not opt out;
    with the opt-out, the child runs unconfined (said once on stderr)."""
    if opted_out():
        _warn_unconfined()
        return Confinement(prefix=[])
    why = probe()
    if why is not None:
        fix = "install bubblewrap (apt-get install bubblewrap) or run" if _bwrap_flags() is None else "run"
        raise SandboxUnavailable(f"cannot sandbox task code on this machine: {why}; {fix} with --no-sandbox "
                                 f"(or {OPT_OUT_ENV}=1) to run it unconfined")
    flags = list(_bwrap_flags() or ())
    if policy.network:
        flags.append("--share-net")
    conf = Confinement(prefix=[*flags, *_binds(policy), "--chdir", str(cwd)], max_procs=policy.max_procs)
    if os.geteuid() == 0:
        conf.cgroup = _PidsCgroup(_pids_cgroup_base(), policy.max_procs)  # probe() found a base
    else:
        n = str(policy.max_procs)
        conf.suffix = [shutil.which("prlimit") or "prlimit", f"--nproc={n}:{n}", "--"]
    return conf


def require() -> None:
    """Raise :class:`SandboxUnavailable` now (before any work) unless children can be sandboxed or the
    user opted out; front ends call it first so a refusal is one line, not a failed build or case."""
    if not opted_out() and probe() is not None:
        confine(SandboxPolicy(), Path("/"))
