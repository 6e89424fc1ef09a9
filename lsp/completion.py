"""Completion: AscendC APIs (after ``AscendC::``, after ``.``/``->`` or as a bare prefix) with snippet
arguments built from the knowledge base's first overload."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from lsp.hover import clean_signature
from lsp.parse import Unit
from retrieval import symbols

ItemKind = Literal["function", "class", "method"]

_CTX = re.compile(r"(AscendC\s*::\s*|\.|->)?([A-Za-z_]\w*)?$")
FUNCTION: ItemKind = "function"
CLASS: ItemKind = "class"
METHOD: ItemKind = "method"


@dataclass(frozen=True)
class Item:
    label: str
    kind: ItemKind
    detail: str
    documentation: str
    snippet: str          # LSP snippet syntax


def _split_top(s: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return out


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def snippet(name: str, overload: str) -> str:
    """``Name<${1:T}>(${2:dst}, ...)`` from a declaration; just the name when it is not callable."""
    m = None
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", overload):
        pass
    if m is None:
        return _escape(name)
    depth, i = 1, m.end()
    while i < len(overload) and depth:
        depth += {"(": 1, ")": -1}.get(overload[i], 0)
        i += 1
    params_txt = overload[m.end():i - 1]
    params = []
    for p in _split_top(params_txt):
        p = p.split("=")[0].strip()
        p = re.sub(r"\[[^\]]*\]\s*$", "", p).strip()
        idents = re.findall(r"[A-Za-z_]\w*", p)
        if p and p != "void" and idents:
            params.append(idents[-1])
    n = 1
    head = _escape(name)
    tmpl = re.search(r"template\s*<([^>]*)>", overload[:m.start()])
    if tmpl:
        tnames = [re.findall(r"\w+", t)[-1] for t in _split_top(tmpl.group(1)) if re.findall(r"\w+", t)]
        if tnames and not any(re.search(rf"\b{t}\b", params_txt) for t in tnames[:1]):
            head += f"<${{{n}:{tnames[0]}}}>"
            n += 1
    args = ", ".join(f"${{{n + k}:{_escape(p)}}}" for k, p in enumerate(params))
    return f"{head}({args})$0"


def items_for(prefix: str, member: bool = False, limit: int = 100) -> list[Item]:
    out = []
    for s in symbols.complete(prefix, limit=limit):
        ov = s.overloads[0] if s.overloads else ""
        is_class = re.search(rf"\b(class|struct)\s+{re.escape(s.name)}\b", ov) is not None
        kind = CLASS if is_class else (METHOD if member or "::" in s.namespace else FUNCTION)
        sig = clean_signature(ov, s.name) if ov else s.qualified
        snip = _escape(s.name) if is_class else snippet(s.name, sig)
        if "(" not in snip:
            kind = CLASS
        out.append(Item(label=s.name, kind=kind, detail=sig[:200], documentation=s.summary, snippet=snip))
    return out


def complete(unit: Unit, line: int, character: int) -> list[Item]:
    """Completion items at a position ([] when the cursor is not after an identifier, ``::`` or ``.``)."""
    off = unit.offset(line, character)
    start = unit.data.rfind(b"\n", 0, off) + 1
    # only the line's tail matters (an identifier longer than this names no API); searching a whole
    # 100,000-character line of identifier characters with _CTX took quadratic time (tens of seconds)
    before = unit.data[max(start, off - 256):off].decode("utf-8", "replace")
    m = _CTX.search(before)
    if m is None:
        return []
    ctx, prefix = m.group(1), m.group(2) or ""
    if not ctx and not prefix:
        return []
    return items_for(prefix, member=bool(ctx and ctx in (".", "->")))
