"""File operations the chat does on op projects: find one, save a copy, undo the last repair."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from assistant.tui.runview import RunView


class OpError(Exception):
    """A user-facing failure (one sentence)."""


def find_project(path: Path) -> Path | None:
    """The op project (folder with op_host/ and op_kernel/) that ``path`` is or lies in."""
    p = path if path.is_dir() else path.parent
    for d in (p, *p.parents):
        if (d / "op_host").is_dir() and (d / "op_kernel").is_dir():
            return d
    return None


def task_name(target: str) -> str:
    """A task's short name: its folder's for a task spec, else the file's stem or the folder's name."""
    # lazy: bench_bridge.api (numpy, the emulator, the perf model) is ~0.5 s of kgen chat's start-up
    from bench_bridge.api import TASK_FILE

    p = Path(target)
    return p.parent.name if p.name == TASK_FILE else (p.name if p.is_dir() else p.stem)


def save_project(project: Path, dest: Path, report: dict | None) -> Path:
    """Copy the project (and the report the panels show) to ``dest``."""
    if not project.is_dir():
        raise OpError(f"the project {project} is gone")
    if dest.exists() and not dest.is_dir():
        raise OpError(f"{dest} exists and is not a directory")
    if dest.resolve() == project.resolve():
        raise OpError(f"{dest} is the project itself")
    shutil.copytree(project, dest, dirs_exist_ok=True)
    if report is not None:
        (dest / "report.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    return dest


def undo_last_round(view: RunView) -> tuple[Path, list[str]]:
    """Write the files of the round before the last one back into the run's project; drop the last round.

    Files the last round created are removed; returns (project, changed relative paths)."""
    if len(view.rounds) < 2:
        raise OpError("nothing to undo: this run has no repair round")
    project = Path(view.target_project)
    if not view.target_project or not project.is_dir():
        raise OpError("nothing to undo: the run's project is not on disk")
    before = view.files_before(len(view.rounds) - 1)
    changed = []
    for rel in sorted(view.rounds[-1].files):
        dest = project / rel
        if rel in before:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(before[rel])
        elif dest.exists():
            dest.unlink()
        changed.append(rel)
    view.rounds.pop()
    return project, changed
