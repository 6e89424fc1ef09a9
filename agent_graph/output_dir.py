"""The output folder (``kgen generate -o DIR``): kgen replaces there only what it wrote there.

A run's final project is copied to DIR, and DIR records the files kgen put there in ``.kgen-output.json``.
The next run into DIR removes those files (a previous draft's kernel of another name must not linger) and
nothing else: a user's own notes, scripts or build folders stay. Before a run starts, a DIR holding op
sources kgen did not write (someone's own project under ``op_host/`` or ``op_kernel/``) is refused in one
line unless the user asked to replace them (``--force``); DIR written by a kgen from before the record
(``kgen-task.toml`` + ``report.json`` beside the sources) counts as kgen's."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

OP_DIRS = ("op_host", "op_kernel")   # where a project's op sources live (msopgen's layout)
MARKER = ".kgen-output.json"


def _recorded(dest: Path) -> set[str] | None:
    """The files kgen wrote to ``dest`` last time (None: no readable record)."""
    try:
        data = json.loads((dest / MARKER).read_text())
        return {str(f) for f in data.get("files", [])}
    except (OSError, ValueError, AttributeError):
        return None


def _legacy_kgen_output(dest: Path) -> bool:
    return (dest / "kgen-task.toml").is_file() and (dest / "report.json").is_file()


def foreign_sources(dest: Path) -> list[str]:
    """Op sources under ``dest`` that kgen did not write there (relative paths, sorted)."""
    found = sorted(p.relative_to(dest).as_posix() for sub in OP_DIRS if (dest / sub).is_dir()
                   for p in (dest / sub).rglob("*") if p.is_file())
    if not found:
        return []
    recorded = _recorded(dest)
    if recorded is None:
        return [] if _legacy_kgen_output(dest) else found
    return [f for f in found if f not in recorded]


def output_problem(dest: Path) -> str | None:
    """One line when a run must not write its project to ``dest`` without ``--force`` (None: it may)."""
    if dest.exists() and not dest.is_dir():
        return f"output {dest} exists and is not a directory"
    theirs = foreign_sources(dest) if dest.is_dir() else []
    if not theirs:
        return None
    more = f" and {len(theirs) - 1} more" if len(theirs) > 1 else ""
    return (f"output {dest} holds op sources kgen did not write ({theirs[0]}{more}): choose another -o DIR, "
            f"or pass --force to replace them")


def replace_project(src: Path, dest: Path, force: bool = False) -> list[str]:
    """Copy the project ``src`` into ``dest``: remove what kgen wrote there before (with ``force``, every op
    source), copy, record the copied files. Returns the op sources removed that were not kgen's."""
    dest.mkdir(parents=True, exist_ok=True)
    recorded = _recorded(dest)
    theirs = foreign_sources(dest)
    if recorded is None and _legacy_kgen_output(dest):
        recorded = set()
        for sub in OP_DIRS:
            shutil.rmtree(dest / sub, ignore_errors=True)
    for rel in sorted(recorded or ()):
        p = dest / rel
        if p.is_file() and rel not in theirs:
            p.unlink()
    removed: list[str] = []
    if force:
        for rel in theirs:
            (dest / rel).unlink(missing_ok=True)
            removed.append(rel)
    shutil.copytree(src, dest, dirs_exist_ok=True)
    files = sorted(p.relative_to(src).as_posix() for p in src.rglob("*") if p.is_file())
    (dest / MARKER).write_text(json.dumps({"files": files}, indent=1) + "\n")
    return removed
