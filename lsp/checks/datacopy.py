"""DataCopy of a constant length that is not 32-byte aligned.

``DataCopy(dst, src, count)`` moves whole 32-byte blocks; when ``count * sizeof(T)`` is a known
constant that is not a multiple of 32 the tail is silently dropped or over-read. The quick fix
rewrites the call to ``DataCopyPad`` with a byte-exact ``DataCopyExtParams``.
"""
from __future__ import annotations

import re

from lsp.checks.consteval import SIZEOF, evaluate
from lsp.checks.findings import WARNING, Finding, Fix

CODE = "datacopy-unaligned"
_ELEM = re.compile(r"\b(LocalTensor|GlobalTensor)\s*<\s*(?:AscendC::)?(\w+)\s*>")
BLOCK = 32


def _base(arg: str) -> str:
    m = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)", arg)
    return m.group(1) if m else ""


def _tensor(unit, arg: str, function: str) -> tuple[str, str] | None:
    """(kind, element type) of a tensor argument from its declaration, or None."""
    m = _ELEM.search(unit.type_of(_base(arg), function))
    return (m.group(1), m.group(2)) if m else None


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    for c in unit.calls:
        if c.name != "DataCopy" or c.obj or c.scope not in ("", "AscendC") or len(c.args) != 3:
            continue
        n = evaluate(c.args[2], unit.constants)
        if n is None or n <= 0:
            continue
        dst, src = _tensor(unit, c.args[0], c.function), _tensor(unit, c.args[1], c.function)
        elem = (c.template_args[0].replace("AscendC::", "").strip() if c.template_args else
                (dst or src or (None, None))[1])
        size = SIZEOF.get(elem or "")
        if size is None:
            continue
        nbytes = n * size
        if nbytes % BLOCK == 0:
            continue
        msg = (f"DataCopy of {n} {elem} elements = {nbytes} bytes is not a multiple of {BLOCK} bytes: "
               f"the tail is dropped or over-read; use DataCopyPad")
        fixes: tuple[Fix, ...] = ()
        count = c.args[2].strip()
        ext = f"AscendC::DataCopyExtParams(1, static_cast<uint32_t>(({count}) * sizeof({elem})), 0, 0, 0)"
        if dst and src and dst[0] == "LocalTensor" and src[0] == "GlobalTensor":
            args = f"({c.args[0]}, {c.args[1]}, {ext}, AscendC::DataCopyPadExtParams<{elem}>(false, 0, 0, 0))"
        elif dst and src and dst[0] == "GlobalTensor" and src[0] == "LocalTensor":
            args = f"({c.args[0]}, {c.args[1]}, {ext})"
        else:
            args = None
        if args is not None:
            fixes = (Fix("Use DataCopyPad (byte-exact length)",
                         ((c.name_span, "DataCopyPad"), (c.args_span, args))),)
        out.append(Finding(span=(c.name_span[0], c.span[1]), message=msg, code=CODE, severity=WARNING, fixes=fixes))
    return out
