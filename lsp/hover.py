"""Hover: the signature(s) and summary of the AscendC API under the cursor, from the knowledge base."""
from __future__ import annotations

import re

from lsp.parse import Unit, word_at
from retrieval import symbols

_MAX_OVERLOADS = 4


_KEYWORDS = {"const", "static", "inline", "virtual", "constexpr", "explicit", "unsigned", "signed", "__aicore__",
             "extern", "friend"}
_BUILTIN_TYPES = {"void", "bool", "int", "char", "float", "double", "half", "long", "short", "auto", "size_t"}
_TOKEN = re.compile(r"template\s*<[^<>]*(?:<[^<>]*>[^<>]*)*>|\S+")


def _is_type(tok: str) -> bool:
    t = tok.rstrip("*&")
    return (t in _BUILTIN_TYPES or t.endswith("_t") or "::" in t or "<" in t or re.fullmatch(r"[A-Z]", t) is not None
            or (re.fullmatch(r"[A-Za-z_]\w*", t) is not None and any(c.isupper() for c in t)
                and any(c.islower() for c in t)))


def clean_signature(sig: str, name: str) -> str:
    """A KB overload as a declaration: class wrappers and comments (the KB's trailing comments of the
    line before end up in front of a declaration) dropped."""
    s = " ".join(sig.split("public:", 1)[-1].split())
    calls = [m.start() for m in re.finditer(rf"\b{re.escape(name)}\s*[(<]", s)]
    if not calls:
        return s.split("//")[0].strip()
    com = s.rfind("//", 0, calls[-1])
    after = [c for c in calls if c > com] if com >= 0 else calls
    pos = after[0] if after else calls[0]
    head, tail = s[:pos], s[pos:]
    tail = tail.split("//")[0].strip()
    if "//" in head:
        toks = _TOKEN.findall(head[head.rfind("//") + 2:])
        keep, typed = [], False
        for tok in reversed(toks):
            if tok.startswith("template"):
                keep.append(tok)
                break
            if tok in _KEYWORDS:
                keep.append(tok)
            elif _is_type(tok) and not typed:
                keep.append(tok)
                typed = True
            else:
                break
        head = " ".join(reversed(keep)) + (" " if keep else "")
    return (head + tail).strip()


def hover_markdown(name: str) -> str | None:
    """Markdown for ``name`` (signature block, summary, KB page) or None when it is not an AscendC API."""
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
