"""Tokens for lexical search and the hashing embedder: words, CamelCase parts, CJK bigrams."""
from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+(?:\.[0-9]+)?|[\u3400-\u9fff\uf900-\ufaff]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
STOP = frozenset("""a an the of to in on for and or is are be by with as at it this that how do i my
can what why when which from use using does not no into its if than then there their you your we
me get set""".split())


def tokens(text: str) -> list[str]:
    """Lower-cased tokens. ``DataCopyPad`` gives ``datacopypad data copy pad``; ``数据搬运``
    gives its characters and character bigrams; English stop words are dropped."""
    out: list[str] = []
    for m in _WORD.finditer(text):
        w = m.group(0)
        if _CJK.match(w):
            out.extend(w)
            out.extend(w[i:i + 2] for i in range(len(w) - 1))
            continue
        lw = w.lower()
        if lw in STOP:
            continue
        out.append(lw)
        parts = [p.lower() for seg in w.split("_") for p in _CAMEL.findall(seg)]
        if len(parts) > 1:
            out.extend(p for p in parts if p not in STOP and p != lw)
    return out
