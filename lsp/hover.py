"""Hover: the signature(s) and summary of the AscendC API under the cursor, from the knowledge base."""
from __future__ import annotations

import re

from lsp.parse import Unit, word_at

_MAX_OVERLOADS = 4


def clean_signature(sig: str, name: str) -> str:
    """A KB overload as a declaration: class wrappers and leading comments dropped."""
    s = sig
    if "public:" in s:
        s = s.split("public:", 1)[1]
    s = re.sub(r"//.*?(?=template\s*<|$)", "", s) if s.lstrip().startswith("//") else s
    s = re.sub(r"^.*?//[^;]*?(?=template\s*<)", "", s) if "//" in s and "template" in s else s
    return " ".join(s.split()).strip()


def hover_markdown(name: str) -> str | None:
    """Markdown for ``name`` (signature block, summary, KB page) or None when it is not an AscendC API."""
    from retrieval import symbols

    sym = symbols.lookup(name)
    if sym is None or sym.name != name:
        return None
    parts = []
    sigs = [clean_signature(o, name) for o in sym.overloads[:_MAX_OVERLOADS]]
    sigs = [s for s in sigs if s]
    if sigs:
        parts.append("```cpp\n" + "\n".join(s + ";" for s in sigs) + "\n```")
    else:
        parts.append(f"```cpp\n{sym.qualified}\n```")
    more = len(sym.overloads) - _MAX_OVERLOADS
    if more > 0:
        parts.append(f"(+{more} more overload{'s' if more > 1 else ''})")
    if sym.summary:
        parts.append(sym.summary)
    meta = [f"`{sym.qualified}`"]
    if sym.header:
        meta.append(f"header `{sym.header}`")
    meta.append(f"KB page `{sym.page}`")
    parts.append(" · ".join(meta))
    return "\n\n".join(parts)


def hover(unit: Unit, line: int, character: int):
    """(markdown, byte span of the word) for the position, or None."""
    w = word_at(unit, line, character)
    if w is None:
        return None
    md = hover_markdown(w[0])
    return (md, w[1]) if md else None
