"""AllocTensor / EnQue / DeQue / FreeTensor balance per TQue.

Per queue object of the file: a buffer taken with AllocTensor must come back with FreeTensor, what is
EnQue'd must be DeQue'd, and the reverse. Counted over the whole file (a kernel class usually spreads
the four calls over CopyIn / Compute / CopyOut).
"""
from __future__ import annotations

import re

from lsp.checks.findings import WARNING, Finding, Fix
from lsp.parse import declarator_name

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
            call = ops["AllocTensor"][0]
            fix = _free_fix(unit, q, (ops["DeQue"] or ops["AllocTensor"])[-1])
            out.append(Finding(span=call.name_span, code=CODE, severity=WARNING, fixes=(fix,) if fix else (),
                               message=f"queue '{q}': AllocTensor without any FreeTensor (the buffer never returns "
                                       f"to the queue; add {q}.FreeTensor(t) after the last use)"))
        if ops["FreeTensor"] and not ops["AllocTensor"]:
            warn(ops["FreeTensor"][0], f"queue '{q}': FreeTensor without any AllocTensor")
        if ops["EnQue"] and not ops["DeQue"]:
            warn(ops["EnQue"][0], f"queue '{q}': EnQue without any DeQue (the consumer never waits for the data)")
        if ops["DeQue"] and not ops["EnQue"]:
            warn(ops["DeQue"][0], f"queue '{q}': DeQue without any EnQue (it waits forever)")
    return out


def _free_fix(unit, q: str, call) -> Fix | None:
    """Insert ``q.FreeTensor(t);`` after the last statement using ``t``, the tensor the consumer took
    from the queue (``auto t = q.DeQue<T>()``, or the AllocTensor result when nothing is queued), in the
    block that declares it."""
    node = unit.tree.root_node.descendant_for_byte_range(call.span[0], call.span[1])
    while node is not None and node.type != "init_declarator" and node.type not in ("compound_statement",
                                                                                   "function_definition"):
        node = node.parent
    if node is None or node.type != "init_declarator":
        return None
    nm = declarator_name(node)
    block = node
    while block is not None and block.type != "compound_statement":
        block = block.parent
    if nm is None or block is None:
        return None
    var = nm.text.decode()
    use = re.compile(rf"\b{re.escape(var)}\b")
    last = None
    for st in block.named_children:
        if st.end_byte > node.end_byte and use.search(st.text.decode("utf-8", "replace")):
            last = st
    if last is None:        # declared and never used again: free right after the declaration statement
        last = node.parent
    line_start = unit.data.rfind(b"\n", 0, last.start_byte) + 1
    indent = re.match(rb"[ \t]*", unit.data[line_start:last.start_byte]).group(0).decode()
    return Fix(f"Add {q}.FreeTensor({var}) after its last use",
               (((last.end_byte, last.end_byte), f"\n{indent}{q}.FreeTensor({var});"),))
