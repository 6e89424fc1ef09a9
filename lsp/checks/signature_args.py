"""Wrong argument count against the known overloads of an AscendC API.

Checked calls: ``AscendC::X(...)``; member calls on AscendC objects (``pipe.InitBuffer(q, 2)``,
``inQ.EnQue(x, y)``: the object's declared type names a class of the emulator); and, under
``using namespace AscendC;``, bare calls of a known API that the file does not define itself
(a warning: a project header may define a function of the same name).

A call is flagged only when no overload accepts its number of arguments. The overloads come from the
emulator headers first, then the KB's Signature sections (``lsp.overloads``); a name with no known
overload is never flagged (``unknown-api`` reports unknown names).
"""
from __future__ import annotations

import re

from lsp import overloads
from lsp.checks.findings import ERROR, WARNING, Finding

CODE = "wrong-arg-count"
_CLASS = re.compile(r"(?:AscendC::)?\b([A-Z]\w*)\s*(?:<|$|\s|&|\*)")


def _obj_base(obj: str) -> str:
    m = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)\s*$", obj)
    return m.group(1) if m else ""


def _class_of(unit, obj: str, function: str) -> str:
    ty = unit.type_of(_obj_base(obj), function)
    if not ty:
        return ""
    for m in _CLASS.finditer(ty + " "):
        if m.group(1) in overloads.emulator().classes:
            return m.group(1)
    return ""


def _expect(arities) -> str:
    counts = sorted(arities, key=lambda a: (a.min, a.max if a.max is not None else 1 << 30))
    parts = list(dict.fromkeys(a.text() for a in counts))
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _finding(c, what: str, arities, severity: int) -> Finding:
    n = len(c.args)
    plural = "argument" if n == 1 else "arguments"
    exp = _expect(arities)
    return Finding(span=c.name_span, code=CODE, severity=severity,
                   message=f"{what} called with {n} {plural}; its overloads take {exp}"
                           f" argument{'' if exp == '1' else 's'}")


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    using = re.search(r"using\s+namespace\s+AscendC\s*;", unit.text) is not None
    for c in unit.calls:
        if c.name in unit.defined and c.scope != "AscendC":
            continue
        n = len(c.args)
        if c.scope == "AscendC":
            ar = overloads.free_arities(c.name)
            if ar and not any(a.accepts(n) for a in ar):
                out.append(_finding(c, f"AscendC::{c.name}", ar, ERROR))
        elif c.obj:
            cls = _class_of(unit, c.obj, c.function)
            if not cls:
                continue
            ar = overloads.member_arities(cls, c.name)
            if ar and not any(a.accepts(n) for a in ar):
                out.append(_finding(c, f"{cls}::{c.name}", ar, ERROR))
        elif using and not c.scope and c.name not in unit.decls:
            ar = overloads.free_arities(c.name)
            if ar and not any(a.accepts(n) for a in ar):
                out.append(_finding(c, c.name, ar, WARNING))
    return out
