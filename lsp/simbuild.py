"""Emulator builds and bench findings for the editor: what to build for a file, and the diagnostics
(compiler messages of the build, run-time findings of the last bench) mapped to files and lines.

:func:`target_of` finds what a file belongs to: a custom-op project (the file sits in ``op_host/`` or
``op_kernel/`` of a folder that has both) or a kernel-launch program (an ``.asc``/``.cpp`` with a host
``main``). :func:`build_findings` builds it with ``bench_bridge`` (``sim.build`` for a program;
``describe_project`` + ``build_project`` for a project) and returns :class:`FileFinding` records.

The server runs ``python -m lsp.simbuild PATH`` in a child process (so a superseded build can be
killed); the child prints the findings as one JSON list.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

SOURCE = "kgen-sim"
PROGRAM_SUFFIXES = {".asc", ".cpp", ".cc", ".cxx"}
_MAIN = re.compile(r"\bint\s+main\s*\(")


@dataclass(frozen=True)
class BuildTarget:
    kind: str                    # "program" | "project"
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
    severity: str                # "error" | "warning" | "note"
    message: str
    code: str
    origin: str                  # "build" | "bench"

    def to_dict(self) -> dict:
        return asdict(self)


def project_root(path: Path) -> Path | None:
    for d in [path.parent, *path.parents][:4]:
        if (d / "op_host").is_dir() and (d / "op_kernel").is_dir():
            return d
    return None


def task_of_project(root: Path) -> Path | None:
    """The task ``kgen bench`` needs for a project: a kgen spec in the project folder, or the
    NPUKernelBench task whose ``answer/<n>`` the project is."""
    if (root / "kgen-task.toml").is_file():
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
    if path.suffix in PROGRAM_SUFFIXES and path.is_file():
        try:
            if _MAIN.search(path.read_text(errors="replace")):
                return BuildTarget("program", path)
        except OSError:
            return None
    return None


def _from_diag(d: dict, fallback: Path, origin: str) -> FileFinding:
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


def build_findings(path: Path, target: BuildTarget | None = None) -> list[FileFinding]:
    """Build the file's program or project on the emulator; the compiler's diagnostics."""
    target = target or target_of(path)
    if target is None:
        return []
    if target.kind == "program":
        from bench_bridge.sim import build

        res = build([target.path])
        diags = [d.to_dict() for d in res.diagnostics]
    else:
        from bench_bridge.project.build import build_project
        from bench_bridge.project.describe import describe_project

        proj = describe_project(target.path)
        diags = [d.to_dict() for d in proj.diagnostics]
        if proj.ok:
            diags += [d.to_dict() for d in build_project(proj, 0).diagnostics]
    seen, out = set(), []
    for d in diags:
        f = _from_diag(d, path, "build")
        if (f.file, f.line, f.message) not in seen:
            seen.add((f.file, f.line, f.message))
            out.append(f)
    return out


def report_findings(report: dict, fallback: Path) -> list[FileFinding]:
    """Run-time findings of a bench report (docs/report-schema.md): every case's diagnostics."""
    out, seen = [], set()
    for case in report.get("cases") or []:
        for d in case.get("diagnostics") or []:
            f = _from_diag(d, fallback, "bench")
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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m lsp.simbuild FILE", file=sys.stderr)
        return 2
    print(json.dumps([f.to_dict() for f in build_findings(Path(args[0]))]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
