"""Suite discovery: which tasks a SUITE path holds, read with bench_bridge's own task loader.

A SUITE is one of
- an NPUKernelBench ``tasks/`` tree, or a level or category folder of it (``tasks/level1/Math``);
- a folder of KernelBench / MultiKernelBench reference ``.py`` files;
- a folder of kgen specs (folders holding ``kgen-task.toml``, or ``.toml`` spec files);
- any mix of these, or a single task;
- a text file listing any of these, one path a line (``#`` comments; relative to the file).
"""
from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

from agent_graph.evaluate.types import EvalError, SuiteTask
from bench_bridge.api import TASK_FILE, TaskError, load_task

SKIP_DIRS = {"answer", "validation", "__pycache__", "node_modules", "build", "kgen-out"}
LEVEL_RE = re.compile(r"^level\d+$")
LIST_SUFFIXES = {".txt", ".lst", ".list", ""}


def discover(suite: Path, levels: list[str] = (), categories: list[str] = (), names: list[str] = ()) -> list[SuiteTask]:
    """The tasks of ``suite`` after the filters, sorted by name; EvalError when there is nothing to run."""
    suite = Path(suite)
    if not suite.exists():
        raise EvalError(f"no such suite: {suite}")
    found: dict[str, SuiteTask] = {}
    for path, root in _entries(suite):
        t = _suite_task(path, root)
        if t is not None:
            found.setdefault(t.name, t)
    if not found:
        raise EvalError(f"{suite}: no tasks found (expected NPUKernelBench task dirs, KernelBench .py files, "
                        f"kgen specs or a list of them)")
    tasks = sorted(found.values(), key=lambda t: t.name)
    if levels:
        tasks = [t for t in tasks if t.level in levels]
    if categories:
        tasks = [t for t in tasks if t.category.lower() in {c.lower() for c in categories}]
    if names:
        tasks = [t for t in tasks if any(fnmatch.fnmatch(t.name, g) or fnmatch.fnmatch(t.name.rsplit("/", 1)[-1], g)
                                         for g in names)]
    if not tasks:
        raise EvalError(f"{suite}: no task matches the filters (--level/--category/--name)")
    return tasks


def _entries(suite: Path, depth: int = 0):
    """(task path, the folder names are relative to) for every candidate task under ``suite``."""
    if suite.is_file() and suite.suffix in LIST_SUFFIXES and not _is_task(suite):
        if depth > 3:
            raise EvalError(f"{suite}: lists nested more than 3 deep")
        for n, line in enumerate(suite.read_text(errors="replace").splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            p = (suite.parent / line) if not os.path.isabs(line) else Path(line)
            if not p.exists():
                raise EvalError(f"{suite}:{n}: no such file or directory: {line}")
            yield from _entries(p, depth + 1)
        return
    if suite.is_file() or _is_task(suite):
        yield suite, suite.parent
        return
    for dirpath, dirnames, filenames in os.walk(suite):
        d = Path(dirpath)
        if _is_task(d):
            dirnames[:] = []
            yield d, suite
            continue
        dirnames[:] = sorted(n for n in dirnames if n not in SKIP_DIRS and not n.startswith("."))
        for f in sorted(filenames):
            if f.endswith(".py") and not f.startswith("_") or (f.endswith(".toml") and f != "pyproject.toml"):
                yield d / f, suite


def _is_task(p: Path) -> bool:
    return p.is_dir() and ((p / "validation" / "module.py").is_file() or (p / TASK_FILE).is_file())


def _suite_task(path: Path, root: Path) -> SuiteTask | None:
    try:
        task = load_task(path)
    except (TaskError, OSError, ValueError):
        if path.is_dir() or path.parent == root and path.suffix not in (".py", ".toml"):
            raise EvalError(f"{path}: not a task") from None
        return None            # a helper .py or a .toml that is not a spec, inside a folder of tasks
    parts = path.resolve().parts
    level = next((p for p in reversed(parts) if LEVEL_RE.match(p)), "")
    category = ""
    if task.format == "npukernelbench" and level:
        i = len(parts) - 1 - parts[::-1].index(level)
        rest = parts[i + 1:]
        category = rest[0] if len(rest) >= 2 else ""
        name = "/".join((level, *rest))
    else:
        leaf = path.parent if path.name == TASK_FILE else path
        try:
            rel = leaf.resolve().relative_to(root.resolve())
            name = str(rel.with_suffix("")) if rel.suffix in (".py", ".toml") else str(rel)
        except ValueError:
            name = task.name
        if name in ("", "."):
            name = task.name
    return SuiteTask(name=name, path=str(path.resolve()), format=task.format, level=level, category=category,
                     cases=len(task.cases), golden=str(task.project) if task.project else None)
