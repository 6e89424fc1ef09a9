"""``python -m lsp.simbuild FILE``: build the program or project a file belongs to on the emulator and
print the compiler's findings as one JSON list of :class:`lsp.targets.FileFinding` (run by the server in a
child process, so a superseded build can be killed).

A program is built with ``bench_bridge.api.build``; a project with ``describe_project`` + ``build_project``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from bench_bridge.api import build, build_project, describe_project
from lsp.config import configure_child
from lsp.targets import BuildTarget, FileFinding, from_diag, target_of


def build_findings(path: Path, target: BuildTarget | None = None) -> list[FileFinding]:
    """Build the file's program or project on the emulator; the compiler's diagnostics."""
    target = target or target_of(path)
    if target is None:
        return []
    if target.kind == "program":
        res = build([target.path])
        diags = [d.to_dict() for d in res.diagnostics]
    else:
        proj = describe_project(target.path)
        diags = [d.to_dict() for d in proj.diagnostics]
        if proj.ok:
            diags += [d.to_dict() for d in build_project(proj, 0).diagnostics]
    seen, out = set(), []
    for d in diags:
        f = from_diag(d, path, "build")
        if (f.file, f.line, f.message) not in seen:
            seen.add((f.file, f.line, f.message))
            out.append(f)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m lsp.simbuild FILE", file=sys.stderr)
        return 2
    configure_child()
    print(json.dumps([f.to_dict() for f in build_findings(Path(args[0]))]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
