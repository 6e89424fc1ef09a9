"""What the editor builds for a file, and the emulator's findings mapped to files and lines.

:func:`target_of` finds what a file belongs to: a custom-op project (the file sits in ``op_host/`` or
``op_kernel/`` of a folder that has both) or a kernel-launch program (an ``.asc``/``.cpp`` with a host
``main``). A :class:`FileFinding` is one compiler message of a build (``lsp.simbuild``, run in a child
process) or one run-time finding of the last bench (:func:`report_findings`).
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

SOURCE = "kgen-sim"
TargetKind = Literal["program", "project"]
SimSeverity = Literal["error", "warning", "note"]
Origin = Literal["build", "bench"]
_MAIN = re.compile(r"\bint\s+main\s*\(")


@dataclass(frozen=True)
class BuildTarget:
    kind: TargetKind
    path: Path                   # the program file or the project folder
    task: Path | None = None     # what `kgen bench` takes for a project (spec / NPUKernelBench task dir)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.path}"


@dataclass(frozen=True)
class FileFinding:
    file: str
    line: int                    # 0-based
    column: int                  # 0-based, in bytes of the line (g++ columns)
    severity: SimSeverity
    message: str
    code: str
    origin: Origin

    def to_dict(self) -> dict:
        return asdict(self)


def project_root(path: Path) -> Path | None:
    for d in [path.parent, *path.parents][:4]:
        if (d / "op_host").is_dir() and (d / "op_kernel").is_dir():
            return d
    return None


def task_file() -> str:
    """The file name of a kgen task spec (``bench_bridge.api.TASK_FILE``)."""
    # by the first save or command the overload table's warm-up has loaded it
    # lazy: bench_bridge.api imports the whole bench bridge, ~0.2-0.3 s (measured), not on the first diagnostics
    from bench_bridge.api import TASK_FILE

    return TASK_FILE


def task_of_project(root: Path) -> Path | None:
    """The task ``kgen bench`` needs for a project: a kgen spec in the project folder, or the
    NPUKernelBench task whose ``answer/<n>`` the project is."""
    if (root / task_file()).is_file():
        return root
    task = root.parent.parent
    if root.parent.name == "answer" and (task / "validation" / "module.py").is_file():
        return task
    return None


def target_of(path: Path) -> BuildTarget | None:
    path = path.resolve()
    root = project_root(path)
    if root is not None:
        return BuildTarget("project", root, task_of_project(root))
    # lazy: see task_file
    from bench_bridge.api import LAUNCH_SUFFIXES

    if path.suffix in LAUNCH_SUFFIXES and path.is_file():
        try:
            if _MAIN.search(path.read_text(errors="replace")):
                return BuildTarget("program", path)
        except OSError:
            return None
    return None


def from_diag(d: dict, fallback: Path, origin: Origin) -> FileFinding:
    f = d.get("file") or ""
    line = int(d.get("line") or 0)
    col = int(d.get("column") or 0)
    msg = d.get("message", "")
    p = Path(f) if f else None
    if p is None or not p.is_file():
        # a generated file (kernel wrapper, harness) or no location: shown at the top of the saved file
        where = f"{f}:{line}: " if f else ""
        p, line, col = fallback, 0, 0
        msg = where + msg
    if d.get("block", -1) not in (-1, None):
        msg += f" (block {d['block']})"
    if d.get("notes"):
        msg += "\n" + "\n".join(d["notes"][:4])
    return FileFinding(str(p.resolve()), max(line - 1, 0), max(col - 1, 0), d.get("severity") or "error", msg,
                       d.get("code") or "compile", origin)


def report_findings(report: dict, fallback: Path) -> list[FileFinding]:
    """Run-time findings of a bench report (docs/report-schema.md): every case's diagnostics."""
    out, seen = [], set()
    for case in report.get("cases") or []:
        for d in case.get("diagnostics") or []:
            f = from_diag(d, fallback, "bench")
            f = FileFinding(f.file, f.line, f.column, f.severity, f"{f.message} [case {case.get('case_id', '?')}]",
                            f.code, "bench")
            if (f.file, f.line, d.get("message")) not in seen:
                seen.add((f.file, f.line, d.get("message")))
                out.append(f)
    return out


def saved_report(target: BuildTarget) -> dict | None:
    """The report.json ``kgen generate`` / the benchmark command left in a project folder."""
    if target.kind != "project":
        return None
    p = target.path / "report.json"
    try:
        return json.loads(p.read_text()) if p.is_file() else None
    except (OSError, ValueError):
        return None
