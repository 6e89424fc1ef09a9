"""Unknown AscendC API, with "did you mean" from the symbol table (``retrieval.symbols``).

Flagged: ``AscendC::X`` (calls, types, constants) where X is not a known API; member calls on
AscendC objects (queues, pipes, tensors: ``inX_.AllocTensr<half>()``); and, in files that say
``using namespace AscendC;``, unqualified CamelCase calls that are neither defined in the file nor
known, when a real API is close. The quick fix replaces the name with the nearest real one.
"""
from __future__ import annotations

import re

from lsp.checks.findings import ERROR, WARNING, Finding, Fix, Severity
from retrieval import symbols

CODE = "unknown-api"
# types whose objects have AscendC member functions
_ASCENDC_TYPES = re.compile(r"\b(TQue|TQueBind|TPipe|TBuf|GlobalTensor|LocalTensor|TBufPool)\b")


def _known(name: str) -> bool:
    s = symbols.lookup(name)
    return s is not None and s.name == name


def _finding(name: str, span: tuple[int, int], what: str, always: bool = True, severity: Severity = ERROR) -> Finding | None:
    near = [n for n in symbols.nearest(name) if n != name]
    if not near and not always:
        return None
    msg = f"unknown AscendC {what} '{name}'"
    if near:
        msg += f"; did you mean '{near[0]}'?" + (f" (or {', '.join(repr(n) for n in near[1:])})" if near[1:] else "")
    fixes = tuple(Fix(f"Replace '{name}' with '{n}'", ((span, n),)) for n in near)
    return Finding(span=span, message=msg, code=CODE, severity=severity, fixes=fixes)


def _obj_base(obj: str) -> str:
    m = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)", obj)
    return m.group(1) if m else ""


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    using = re.search(r"using\s+namespace\s+AscendC\s*;", unit.text) is not None
    for c in unit.calls:
        f = None
        if c.scope == "AscendC" and not _known(c.name):
            f = _finding(c.name, c.name_span, "API")
        elif c.obj:
            ty = unit.type_of(_obj_base(c.obj), c.function)
            if _ASCENDC_TYPES.search(ty) and not _known(c.name) and c.name not in unit.defined:
                f = _finding(c.name, c.name_span, f"member of {_ASCENDC_TYPES.search(ty).group(1)}", always=False)
        elif (using and not c.scope and c.name[:1].isupper() and c.name not in unit.defined
              and c.name not in unit.decls and not _known(c.name)):
            # may come from a header of the project: a warning, not an error
            f = _finding(c.name, c.name_span, "API", always=False, severity=WARNING)
        if f is not None:
            out.append(f)
    for n in unit.names:
        if not _known(n.name) and n.name not in unit.defined:
            f = _finding(n.name, n.span, "name")
            if f is not None:
                out.append(f)
    return out
