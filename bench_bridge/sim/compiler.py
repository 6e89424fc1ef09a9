"""``kgen sim build``: compile AscendC sources against the emulator headers with g++.

What a CANN user hands to the toolchain (a kernel-launch program: ``.asc``/``.cpp`` holding
kernels and a host ``main`` with ``<<<>>>`` launches) is rewritten for g++ (launch syntax only,
line numbers kept), then compiled with the emulator's precompiled header so a typical kernel
builds in a couple of seconds. Builds are cached by content: sources, the headers they
included (from g++'s dependency list), flags and the emulator version. Each translation unit is
compiled to its own object (the uncached ones at once, as ``make -j`` would), and objects are cached
too, by content (``_compile_objects``): a project's harness main and host code are compiled once and
linked into the executable of every dtype combination.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge.sim.diagnostics import Diagnostic, parse_gcc
from bench_bridge.sim.launch_syntax import LaunchSyntaxError, rewrite_launches

INCLUDE_DIR = Path(__file__).resolve().parent / "include"
CXX = os.environ.get("KGEN_CXX", "g++")
# -gdwarf-4: with DWARF 5, addr2line (binutils 2.40) names the rewritten copy of the source instead of
# the user's file for the first rows of a translation unit's line table (file entry 0 vs 1)
# __NPU_ARCH__=2201 / __CCE_AICORE__=220: the architecture the emulator implements (Atlas A2 / 910B, dav-c220), as
# ccec defines them; kernels guard 910B-only branches (bf16 keys, ...) with `#if __CCE_AICORE__ == 220`
BASE_FLAGS = ["-std=c++17", "-O1", "-g", "-gdwarf-4", "-pthread", "-fno-strict-aliasing", "-Wno-attributes",
              "-D__NPU_ARCH__=2201", "-D__CCE_AICORE__=220"]
PRELUDE = "#include <kernel_operator.h>\n#include <acl/acl.h>\n"


@dataclass
class BuildResult:
    """Outcome of one build: ``ok`` means a runnable binary exists at ``binary``."""

    ok: bool
    binary: Path | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    seconds: float = 0.0
    cached: bool = False
    kernels: list[str] = field(default_factory=list)
    log: str = ""
    reused_objects: int = 0       # translation units taken from the object cache instead of compiled

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def cache_root() -> Path:
    base = os.environ.get("KGEN_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "kgen"
    )
    return Path(base)


def _sha(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode() if isinstance(p, str) else p)
        h.update(b"\0")
    return h.hexdigest()


def _headers_digest() -> str:
    """Digest of every emulator header: a change invalidates the PCH and cached builds."""
    h = hashlib.sha256()
    # the headers' location is part of the key: g++ records absolute header paths in a PCH and in
    # diagnostics, and kgen maps emulator-header diagnostics back to user code by that location, so
    # a cache shared by two checkouts must not hand one checkout's PCH to the other
    h.update(str(INCLUDE_DIR.resolve()).encode())
    for p in sorted(INCLUDE_DIR.rglob("*.h")):
        h.update(str(p.relative_to(INCLUDE_DIR)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def _compiler_id() -> str:
    try:
        return subprocess.run([CXX, "--version"], capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return CXX


def _flags(defines: list[str], extra: list[str]) -> list[str]:
    return [*BASE_FLAGS, *[f"-D{d}" for d in defines], *extra]


class PchError(RuntimeError):
    """The emulator's own prelude did not compile (a broken emulator header); carries g++'s output."""

    def __init__(self, stderr: str):
        super().__init__("building the emulator's precompiled header failed")
        self.stderr = stderr


KEEP_PCH = 3        # precompiled headers kept (each ~60 MB): the newest header versions
KEEP_BUILDS = 150   # cached executables kept, least recently used pruned first
KEEP_OBJECTS = 200  # cached objects kept (one per translation unit version, 2-6 MB each with -g)


def _prune(root: Path, keep: int) -> None:
    """Remove all but the ``keep`` most recently used entries under ``root`` (best effort)."""
    try:
        entries = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in entries[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def _touch(p: Path) -> None:
    try:
        os.utime(p)
    except OSError:
        pass


def ensure_pch(extra: list[str] = ()) -> Path:
    """Build (once per header version and flag set) the precompiled emulator prelude.

    Returns the prelude header path; g++ picks up ``prelude.h.gch`` beside it. User ``-D`` defines
    are not part of it: g++ itself ignores a PCH that a define would change, and falls back to the
    plain header, so one PCH serves every define set.
    """
    flags = _flags([], list(extra))
    key = _sha(_headers_digest(), _compiler_id(), " ".join(flags))[:20]
    d = cache_root() / "pch" / key
    prelude = d / "prelude.h"
    gch = d / "prelude.h.gch"
    if gch.exists():
        _touch(d)
        return prelude
    d.mkdir(parents=True, exist_ok=True)
    tmpdir = Path(tempfile.mkdtemp(dir=d))
    (tmpdir / "prelude.h").write_text(PRELUDE)
    cmd = [CXX, *flags, "-I", str(INCLUDE_DIR), "-x", "c++-header", str(tmpdir / "prelude.h"), "-o", str(tmpdir / "prelude.h.gch")]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(tmpdir, ignore_errors=True)
        raise PchError(proc.stderr)
    # publish atomically: header first, then the .gch that makes it usable
    os.replace(tmpdir / "prelude.h", prelude)
    os.replace(tmpdir / "prelude.h.gch", gch)
    shutil.rmtree(tmpdir, ignore_errors=True)
    _prune(d.parent, KEEP_PCH)
    return prelude


def _prepare_sources(sources: list[Path], workdir: Path) -> tuple[list[Path], list[str], list[Diagnostic]]:
    """Rewrite launch syntax into ``workdir``; ``#line`` keeps diagnostics on the original files."""
    out, kernels, diags = [], [], []
    for i, src in enumerate(sources):
        try:
            text = src.read_text(errors="replace")
        except OSError as e:
            diags.append(Diagnostic("error", f"cannot read source: {e.strerror}", str(src), 0, 0, "io"))
            continue
        try:
            new, names = rewrite_launches(text)
        except LaunchSyntaxError as e:
            diags.append(Diagnostic("error", str(e), str(src), e.line, 0, "launch-syntax"))
            continue
        kernels += names
        dst = workdir / f"src{i}_{src.stem}.cpp"
        dst.write_text(f'#line 1 "{src}"\n{new}')
        out.append(dst)
    return out, kernels, diags


def _deps_from_depfile(depfile: Path) -> list[str]:
    if not depfile.exists():
        return []
    text = depfile.read_text().replace("\\\n", " ")
    _, _, rest = text.partition(":")
    return [p for p in rest.split() if p and not p.startswith(str(INCLUDE_DIR)) and not p.startswith("/usr/")]


def _file_sha(p: str) -> str:
    try:
        return hashlib.sha256(Path(p).read_bytes()).hexdigest()
    except OSError:
        return "missing"


@dataclass
class _Object:
    """One translation unit compiled (or found in the object cache)."""

    path: Path | None
    diagnostics: list[Diagnostic]
    deps: dict[str, str]              # user files it included -> sha256
    stderr: str = ""
    cached: bool = False
    timed_out: bool = False


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def _cached_object(entry: Path, search: list[str], quoted: list[str]) -> dict | None:
    """The manifest of a cached object still valid for this build, else None.

    The key holds the translation unit's text, flags, compiler and emulator headers, not the
    include search path, so one object serves every project (the harness main). It is reused only
    if every user file it included is unchanged, the search path is the same whenever it included
    user files, and no directory of this build's search path holds a file named as one of its own
    ``#include "..."`` lines (``-iquote`` directories are searched before the emulator's headers, so
    such a file would be included instead)."""
    man, obj = entry / "manifest.json", entry / "obj.o"
    if not (man.exists() and obj.exists()):
        return None
    try:
        info = json.loads(man.read_text())
    except (OSError, ValueError):
        return None
    if any(_file_sha(p) != h for p, h in info["deps"].items()):
        return None
    if info["deps"] and info["search"] != search:
        return None
    if any(os.path.exists(os.path.join(d, name)) for d in search for name in quoted):
        return None
    return info


def _compile_objects(prepared: list[Path], flags: list[str], front: list[str], search: list[str], prelude: str,
                     use_cache: bool, timeout: float) -> list[_Object]:
    """Compile each prepared translation unit to an object, reusing cached objects (see ``_cached_object``);
    the ones to compile run as concurrent g++ processes."""
    base = _sha(_headers_digest(), _compiler_id(), " ".join(flags), prelude)
    out: list[_Object | None] = [None] * len(prepared)
    running = []
    for k, p in enumerate(prepared):
        text = p.read_text(errors="replace")
        entry = cache_root() / "objects" / _sha(base, text)[:24]
        info = _cached_object(entry, search, _QUOTED_INCLUDE.findall(text)) if use_cache else None
        if info is not None:
            _touch(entry)
            out[k] = _Object(entry / "obj.o", [Diagnostic(**d) for d in info["diagnostics"]], info["deps"], cached=True)
            continue
        entry.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="cc-", dir=entry))
        cmd = [*front, "-MD", "-c", "-x", "c++", str(p), "-o", str(tmp / "obj.o")]
        running.append((k, entry, tmp, subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                                        cwd=p.parent)))
    deadline = time.monotonic() + max(timeout, 1.0)
    for k, entry, tmp, proc in running:
        try:
            _, err = proc.communicate(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            shutil.rmtree(tmp, ignore_errors=True)
            out[k] = _Object(None, [], {}, timed_out=True)
            continue
        diags = parse_gcc(err, (str(INCLUDE_DIR), str(Path(prelude).parent)))
        if proc.returncode != 0 or not (tmp / "obj.o").exists():
            shutil.rmtree(tmp, ignore_errors=True)
            out[k] = _Object(None, diags, {}, err)
            continue
        own = (str(prepared[k].parent), str(Path(prelude).parent))   # the rewritten source, the PCH prelude
        deps = {d: _file_sha(d) for d in _deps_from_depfile(tmp / "obj.d") if not d.startswith(own)}
        info = {"deps": deps, "search": search, "diagnostics": [d.to_dict() for d in diags]}
        os.replace(tmp / "obj.o", entry / "obj.o")          # publish: the object, then the manifest that makes it usable
        (tmp / "manifest.json").write_text(json.dumps(info))
        os.replace(tmp / "manifest.json", entry / "manifest.json")
        shutil.rmtree(tmp, ignore_errors=True)
        out[k] = _Object(entry / "obj.o", diags, deps, err)
    if running:
        _prune(cache_root() / "objects", KEEP_OBJECTS)
    return [o for o in out if o is not None]


def build(
    sources: list[str | Path],
    output: str | Path | None = None,
    include_dirs: list[str | Path] = (),
    defines: list[str] = (),
    extra_flags: list[str] = (),
    use_cache: bool = True,
    timeout: float = 300.0,
) -> BuildResult:
    """Compile ``sources`` into an emulator executable at ``output`` (default: in the cache)."""
    t0 = time.monotonic()
    srcs = [Path(s).resolve() for s in sources]
    missing = [s for s in srcs if not s.is_file()]
    if missing:
        return BuildResult(False, None, [Diagnostic("error", "no such source file", str(m), 0, 0, "io") for m in missing])
    incs = [str(Path(i).resolve()) for i in include_dirs]
    defs = list(defines)
    flags = _flags(defs, list(extra_flags))
    key = _sha(_headers_digest(), _compiler_id(), " ".join(flags), *incs, *[str(s) + _file_sha(str(s)) for s in srcs])[:24]
    entry = cache_root() / "builds" / key
    manifest = entry / "manifest.json"
    out_path = Path(output).resolve() if output else entry / "a.out"

    if use_cache and manifest.exists():
        info = json.loads(manifest.read_text())
        if all(_file_sha(p) == h for p, h in info["deps"].items()) and (entry / "a.out").exists():
            _touch(entry)
            if out_path != entry / "a.out":
                out_path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(entry / "a.out", out_path)
            return BuildResult(True, out_path, [Diagnostic(**d) for d in info.get("diagnostics", [])], info["command"],
                               time.monotonic() - t0, True, info.get("kernels", []))

    try:
        prelude = ensure_pch(list(extra_flags))
    except PchError as e:
        diags = parse_gcc(e.stderr) or [Diagnostic("error", e.stderr[-2000:], str(INCLUDE_DIR), 0, 0, "compile")]
        for d in diags:
            d.notes.append("this is an error in kgen's emulator headers, not in your code: please report it")
        return BuildResult(False, None, diags, [], time.monotonic() - t0, False, [], e.stderr)
    entry.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=entry))
    try:
        prepared, kernels, diags = _prepare_sources(srcs, work)
        if diags:
            return BuildResult(False, None, diags, [], time.monotonic() - t0, False, kernels)
        tmp_bin = work / "a.out"
        front = [CXX, *flags, "-include", str(prelude), "-I", str(INCLUDE_DIR)]
        for s in srcs:
            front += ["-iquote", str(s.parent)]
        for i in incs:
            front += ["-I", i]
        search = list(dict.fromkeys([str(s.parent) for s in srcs] + incs))
        objs = _compile_objects(prepared, flags, front, search, str(prelude), use_cache, timeout - (time.monotonic() - t0))
        diags = [d for o in objs for d in o.diagnostics]
        stderr = "".join(o.stderr for o in objs)
        cmd = [CXX, *flags, *[str(o.path) for o in objs if o.path], "-o", str(tmp_bin), "-ldl"]
        if any(o.timed_out for o in objs):
            return BuildResult(False, None, [Diagnostic("error", f"compilation did not finish within {timeout:.0f} s", str(srcs[0]), 0, 0, "timeout")],
                               front, time.monotonic() - t0, False, kernels)
        if not all(o.path for o in objs):
            if not any(d.severity == "error" for d in diags):
                diags.append(Diagnostic("error", stderr.strip()[-2000:] or "compiler failed", str(srcs[0]), 0, 0, "compile"))
            return BuildResult(False, None, diags, front, time.monotonic() - t0, False, kernels, stderr)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=max(30.0, timeout - (time.monotonic() - t0)), cwd=work)
        except subprocess.TimeoutExpired:
            return BuildResult(False, None, [Diagnostic("error", f"linking did not finish within {timeout:.0f} s", str(srcs[0]), 0, 0, "timeout")],
                               cmd, time.monotonic() - t0, False, kernels)
        diags += parse_gcc(proc.stderr, (str(INCLUDE_DIR), str(prelude.parent)))
        stderr += proc.stderr
        if proc.returncode != 0 or not tmp_bin.exists():
            if not any(d.severity == "error" for d in diags):
                diags.append(Diagnostic("error", proc.stderr.strip()[-2000:] or "linking failed", str(srcs[0]), 0, 0, "compile"))
            return BuildResult(False, None, diags, cmd, time.monotonic() - t0, False, kernels, stderr)
        deps: dict[str, str] = {str(s): _file_sha(str(s)) for s in srcs}
        for o in objs:
            deps.update(o.deps)
        os.replace(tmp_bin, entry / "a.out")
        manifest.write_text(json.dumps({"deps": deps, "command": cmd, "kernels": kernels,
                                        "diagnostics": [d.to_dict() for d in diags]}))
        _prune(entry.parent, KEEP_BUILDS)
        if out_path != entry / "a.out":
            out_path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry / "a.out", out_path)
        return BuildResult(True, out_path, diags, cmd, time.monotonic() - t0, False, kernels, stderr,
                           sum(o.cached for o in objs))
    finally:
        shutil.rmtree(work, ignore_errors=True)
