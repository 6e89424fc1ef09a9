"""Diagnostics of the emulator backend: one typed record for compiler and run-time findings.

Compiler messages come from g++ or clang++ (``file:line:col: error: message``); run-time findings come
from the emulator as JSON lines (see ``kgen_sim/diag.h``). Both become :class:`Diagnostic`.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

_REQUIRED_FROM = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)?\s+required from")
_GCC_LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")


@dataclass
class Diagnostic:
    """A finding tied to a source location."""

    severity: str  # "error" | "warning" | "note"
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    code: str = ""  # emulator rule code, e.g. "gm-out-of-bounds"; "compile" for g++ messages
    source: str = "compiler"  # "compiler" | "runtime"
    block: int = -1
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)

    def format(self) -> str:
        loc = f"{self.file}:{self.line}" + (f":{self.column}" if self.column else "")
        tail = f" [{self.code}]" if self.code and self.code != "compile" else ""
        blk = f" (block {self.block})" if self.block >= 0 else ""
        return f"{loc}: {self.severity}: {self.message}{tail}{blk}"


# clang's instantiation-stack notes (innermost first, after the error they explain):
#   "in instantiation of function template specialization 'f<int>' requested here",
#   "in instantiation of default argument for 'g<int>' required here", "in call to 'h'"
_CLANG_CONTEXT = re.compile(r"^(in instantiation of .*|.*\b(requested|required) here|in call to .*|"
                            r"while substituting .*|during template argument deduction .*)$")


def parse_gcc(output: str, hidden_prefixes: tuple[str, ...] = ()) -> list[Diagnostic]:
    """Parse g++ or clang++ stderr into diagnostics; notes attach to the preceding error or warning.

    Messages located in ``hidden_prefixes`` (the emulator's own headers) are re-attributed to the
    user location of the message chain, with the header message kept as a note. g++ names that
    location before the message ("In instantiation of ...", then "user.cpp:5:3:   required from here");
    clang after it, as notes ("user.cpp:5:3: note: in instantiation of ... requested here", innermost
    first): the first such note in a user file is the line the user wrote.
    """
    diags: list[Diagnostic] = []
    context_user: tuple[str, int, int] | None = None
    pending: Diagnostic | None = None      # an internal diagnostic still waiting for clang's user-located note
    for raw in output.splitlines():
        m = _GCC_LINE.match(raw.strip())
        if not m:
            r = _REQUIRED_FROM.match(raw.strip())
            if r and not any(r["file"].startswith(p) for p in hidden_prefixes) and context_user is None:
                context_user = (r["file"], int(r["line"]), int(r["col"] or 0))
            continue
        file, line, col = m["file"], int(m["line"]), int(m["col"] or 0)
        sev = "error" if m["sev"] in ("error", "fatal error") else m["sev"]
        msg = m["msg"]
        internal = any(file.startswith(p) for p in hidden_prefixes)
        if sev == "note" or "required from" in msg or msg.startswith("In instantiation"):
            if not internal and "required from here" in msg:
                context_user = (file, line, col)
            if diags and sev == "note":
                diags[-1].notes.append(f"{file}:{line}: {msg}")
                if pending is diags[-1] and not internal and _CLANG_CONTEXT.match(msg):
                    pending.notes.append(f"in the emulator header {pending.file}:{pending.line}")
                    pending.file, pending.line, pending.column = file, line, col
                    pending = None
            continue
        if internal and context_user:
            d = Diagnostic(sev, msg, context_user[0], context_user[1], context_user[2], "compile")
            d.notes.append(f"in the emulator header {file}:{line}")
            pending = None
        else:
            d = Diagnostic(sev, msg, file, line, col, "compile")
            pending = d if internal else None
        diags.append(d)
        context_user = None
    return diags


parse_compiler = parse_gcc


def read_runtime(path: Path) -> list[Diagnostic]:
    """Read the emulator's JSON-lines diagnostics file (missing file: none)."""
    if not path.exists():
        return []
    diags = []
    for raw in path.read_text(errors="replace").splitlines():
        try:
            d = json.loads(raw)
        except json.JSONDecodeError:
            continue
        diags.append(
            Diagnostic(
                severity=d.get("severity", "error"),
                message=d.get("message", ""),
                file=d.get("file", ""),
                line=int(d.get("line", 0)),
                code=d.get("code", ""),
                source="runtime",
                block=int(d.get("block", -1)),
            )
        )
    return diags
