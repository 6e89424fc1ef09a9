"""AllocTensor / EnQue / DeQue / FreeTensor balance per TQue.

Per queue object of the file: a buffer taken with AllocTensor must come back with FreeTensor, what is
EnQue'd must be DeQue'd, and the reverse. Counted over the whole file (a kernel class usually spreads
the four calls over CopyIn / Compute / CopyOut).
"""
from __future__ import annotations

import re

from lsp.checks import WARNING, Finding

CODE = "queue-balance"
_QUEUE = re.compile(r"\b(TQue|TQueBind)\b")
_OPS = ("AllocTensor", "EnQue", "DeQue", "FreeTensor")


def _base(obj: str) -> str:
    m = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)\s*$", obj)
    return m.group(1) if m else ""


def check(unit) -> list[Finding]:
    by_q: dict[str, dict[str, list]] = {}
    for c in unit.calls:
        if c.name in _OPS and c.obj:
            q = _base(c.obj)
            if q and _QUEUE.search(unit.type_of(q, c.function)):
                by_q.setdefault(q, {k: [] for k in _OPS})[c.name].append(c)
    out: list[Finding] = []
    for q, ops in by_q.items():
        def warn(call, msg):
            out.append(Finding(span=call.name_span, message=msg, code=CODE, severity=WARNING))

        if ops["AllocTensor"] and not ops["FreeTensor"]:
            warn(ops["AllocTensor"][0], f"queue '{q}': AllocTensor without any FreeTensor "
                                        f"(the buffer never returns to the queue; add {q}.FreeTensor(t) after the last use)")
        if ops["FreeTensor"] and not ops["AllocTensor"]:
            warn(ops["FreeTensor"][0], f"queue '{q}': FreeTensor without any AllocTensor")
        if ops["EnQue"] and not ops["DeQue"]:
            warn(ops["EnQue"][0], f"queue '{q}': EnQue without any DeQue (the consumer never waits for the data)")
        if ops["DeQue"] and not ops["EnQue"]:
            warn(ops["DeQue"][0], f"queue '{q}': DeQue without any EnQue (it waits forever)")
    return out
