"""Tokens for lexical search and the hashing embedder: words, light stems, CamelCase parts, CJK bigrams;
and query expansion by the synonym map in ``retrieval/data/synonyms.txt``."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

# bump when tokens() changes: indexes built with other tokens are rebuilt (see index.MANIFEST_VERSION)
VERSION = 2
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+(?:\.[0-9]+)?|[\u3400-\u9fff\uf900-\ufaff]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
STOP = frozenset("""a an the of to in on for and or is are be by with as at it this that how do i my
can what why when which from use using does not no into its if than then there their you your we
me get set""".split())
SYNONYMS = Path(__file__).resolve().parent / "data" / "synonyms.txt"


def cjk_share(text: str) -> float:
    """The share of CJK characters among the non-space characters of ``text`` (0 for an empty text)."""
    chars = [c for c in text if not c.isspace()]
    return sum(1 for c in chars if "\u3400" <= c <= "\u9fff") / len(chars) if chars else 0.0


def stem(w: str) -> str:
    """A light English stem so that plural, -ing, -ed and a trailing e meet:
    ``copies copied copying copy`` -> ``copy``; ``reduce reduced reducing`` -> ``reduc``."""
    if len(w) <= 3 or not w.isalpha() or not w.isascii():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ing") and len(w) > 5:
        w = w[:-3]
        if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
            w = w[:-1]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
        if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
            w = w[:-1]
    elif w.endswith("es") and len(w) > 4 and w[-3] in "sxz" or w.endswith(("ches", "shes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def tokens(text: str) -> list[str]:
    """Lower-cased tokens. ``DataCopyPad`` gives ``datacopypad data copy pad``; ``数据搬运``
    gives its characters and character bigrams; English stop words are dropped; a word whose
    light stem differs from it gives the stem too (``launched`` -> ``launched launch``)."""
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
        s = stem(lw)
        if s != lw:
            out.append(s)
        parts = [p.lower() for seg in w.split("_") for p in _CAMEL.findall(seg)]
        if len(parts) > 1:
            for p in parts:
                if p not in STOP and p != lw:
                    out.append(p)
                    if stem(p) != p:
                        out.append(stem(p))
    return out


@lru_cache(maxsize=1)
def _synonym_groups() -> dict[str, tuple[str, ...]]:
    """key -> the tokens of every synonym group the key belongs to. One group per line of
    synonyms.txt, members separated by commas, ``#`` starts a comment. A one-word member is keyed by
    its tokens (word and stem), a phrase by its token sequence joined with spaces."""
    out: dict[str, list[str]] = {}
    try:
        lines = SYNONYMS.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        members = [m.strip() for m in line.split(",") if m.strip()]
        group = list(dict.fromkeys(t for m in members for t in tokens(m)))
        for m in members:
            toks = tokens(m)
            keys = toks if len(m.split()) == 1 else [" ".join(t for t in toks if t == stem(t) or stem(t) not in toks)]
            for k in keys:
                lst = out.setdefault(k, [])
                lst += [t for t in group if t not in lst]
    return {k: tuple(v) for k, v in out.items()}


def expand(query: str, weight: float = 0.4) -> dict[str, float]:
    """Query tokens with weights: the query's own tokens 1.0, their synonyms (synonyms.txt) ``weight``."""
    toks = tokens(query)
    w = {t: 1.0 for t in toks}
    groups = _synonym_groups()
    words = [t for t in toks if t == stem(t) or stem(t) not in toks]   # one token per word, for phrases
    keys = list(toks) + [" ".join(words[i:i + n]) for n in (2, 3) for i in range(len(words) - n + 1)]
    for k in keys:
        for t in groups.get(k, ()):
            w.setdefault(t, weight)
    return w
