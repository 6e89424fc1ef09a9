"""The symbol table of AscendC APIs, read from the knowledge base's front matter: hover,
completion and "unknown API -> nearest real API" suggestions."""
from __future__ import annotations

import difflib
import os
import pickle
import re
from dataclasses import dataclass, field
from functools import lru_cache

from retrieval.corpus import Page, kb_fingerprint, load_kb
from retrieval.settings import data_dir

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
IDENT = _IDENT
_SIG_SECTIONS = ("signature", "signatures", "declaration", "declarations", "members", "prototype")


@dataclass(frozen=True)
class Symbol:
    name: str
    namespace: str
    page: str            # KB page id, e.g. "api/DataCopyPad"
    title: str
    family: str
    header: str
    summary: str
    overloads: tuple[str, ...] = field(default_factory=tuple)

    @property
    def qualified(self) -> str:
        return f"{self.namespace}::{self.name}" if self.namespace else self.name

    def to_dict(self) -> dict:
        return {"name": self.name, "namespace": self.namespace, "qualified": self.qualified, "page": self.page,
                "title": self.title, "family": self.family, "header": self.header, "summary": self.summary,
                "overloads": list(self.overloads)}


def _summary(body: str) -> str:
    para: list[str] = []
    for line in body.splitlines():
        s = line.strip()
        if s.startswith("#") or s.startswith("```"):
            if para:
                break
            continue
        if not s:
            if para:
                break
            continue
        para.append(s)
    return " ".join(para)


def _code_blocks(body: str, sections: tuple[str, ...]) -> list[str]:
    out, cur, in_sec, in_code = [], [], False, False
    for line in body.splitlines():
        if line.startswith("## ") and not in_code:
            in_sec = line[3:].strip().lower() in sections
            continue
        if line.lstrip().startswith("```"):
            if in_code and in_sec:
                out.append("\n".join(cur))
            in_code, cur = not in_code, []
            continue
        if in_code:
            cur.append(line)
    return out


def _overloads(name: str, body: str) -> tuple[str, ...]:
    """Declarations of ``name`` in the page's Signature section (``;``-terminated statements)."""
    sigs: list[str] = []
    for block in _code_blocks(body, _SIG_SECTIONS):
        text = "\n".join(l for l in block.splitlines() if not l.strip().startswith("//"))
        for stmt in text.split(";"):
            joined = " ".join(stmt.split())
            if joined and re.search(rf"\b{re.escape(name)}\b", joined):
                sigs.append(joined)
    return tuple(dict.fromkeys(sigs))


def build(pages: list[Page]) -> dict[str, Symbol]:
    """API names from front matter ``api``; class members (``members``) are added as ``Class::name``
    under their bare name when no API has that name."""
    table: dict[str, Symbol] = {}
    for p in pages:
        if not p.apis:
            continue
        ns = str(p.meta.get("namespace") or "")
        for name in p.apis:
            if name in table:
                continue
            table[name] = Symbol(name=name, namespace=ns, page=p.id, title=p.title,
                                 family=str(p.meta.get("family") or ""), header=str(p.meta.get("header") or ""),
                                 summary=_summary(p.body), overloads=_overloads(name, p.body))
    for p in pages:
        owner = p.apis[0] if p.apis else ""
        ns = str(p.meta.get("namespace") or "")
        for name in p.meta.get("members") or []:
            name = str(name)
            if name not in table:
                table[name] = Symbol(name=name, namespace=f"{ns}::{owner}" if ns else owner, page=p.id, title=p.title,
                                     family=str(p.meta.get("family") or ""), header=str(p.meta.get("header") or ""),
                                     summary=_summary(p.body), overloads=_overloads(name, p.body))
    return table


def _build_aliases(pages: list[Page]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pages:
        for a in p.meta.get("aliases") or []:
            if p.apis:   # the page's API most like the alias (DeQueue -> DeQue on the EnQue/DeQue page)
                best = max(p.apis, key=lambda n: difflib.SequenceMatcher(None, n.lower(), str(a).lower()).ratio())
                out[str(a).lower()] = best
    return out


_CACHE_VERSION = 1


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, Symbol], dict[str, str]]:
    """The symbol and alias tables of the shipped KB. Parsing ~270 pages takes ~0.15 s, so both are
    kept in ``<data dir>/symbols.pkl`` under the KB's fingerprint and rebuilt when the KB changes."""
    fp = kb_fingerprint()
    path = data_dir() / "symbols.pkl"
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)
        if data.get("version") == _CACHE_VERSION and data.get("fingerprint") == fp:
            return data["table"], data["aliases"]
    except Exception:   # missing or unreadable: rebuilt below
        pass
    pages = load_kb()
    table, aliases = build(pages), _build_aliases(pages)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"symbols.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump({"version": _CACHE_VERSION, "fingerprint": fp, "table": table, "aliases": aliases}, f, protocol=5)
        tmp.replace(path)
    except OSError:
        pass
    return table, aliases


def _table() -> dict[str, Symbol]:
    return _tables()[0]


def _aliases() -> dict[str, str]:
    """Names models invent or that other frameworks use, mapped to the real API (front matter ``aliases``)."""
    return _tables()[1]


def _bare(name: str) -> str:
    name = name.strip().rstrip("();").strip()
    for pre in ("AscendC::", "::"):
        if name.startswith(pre):
            name = name[len(pre):]
    return name.split("<")[0].strip()


def all() -> list[Symbol]:  # noqa: A001 - the documented API name
    """Every known API symbol, sorted by name."""
    return sorted(_table().values(), key=lambda s: s.name.lower())


def names() -> list[str]:
    return [s.name for s in all()]


def lookup(name: str) -> Symbol | None:
    """Exact lookup (``AscendC::`` prefix, template arguments and ``()`` ignored); case-insensitive fallback."""
    t = _table()
    bare = _bare(name)
    if bare in t:
        return t[bare]
    low = {k.lower(): v for k, v in t.items()}
    return low.get(bare.lower())


def nearest(name: str, n: int = 3) -> list[str]:
    """Real API names closest to ``name`` (for "did you mean"); [] when nothing is reasonably close."""
    bare = _bare(name)
    t = _table()
    if bare in t:
        return [bare]
    out: list[str] = []
    alias = _aliases().get(bare.lower())
    if alias:
        out.append(alias)
    low = {k.lower(): k for k in t}
    out += [low[m] for m in difflib.get_close_matches(bare.lower(), list(low), n=n, cutoff=0.6)]
    if len(out) < n and len(bare) >= 4:
        out += sorted((k for lk, k in low.items() if bare.lower() in lk or (len(lk) >= 4 and lk in bare.lower())),
                      key=lambda k: abs(len(k) - len(bare)))
    return list(dict.fromkeys(out))[:n]


def complete(prefix: str, limit: int = 50) -> list[Symbol]:
    """Symbols whose name starts with ``prefix`` (case-insensitive), shortest first."""
    p = _bare(prefix).lower()
    hits = [s for s in _table().values() if s.name.lower().startswith(p)]
    return sorted(hits, key=lambda s: (len(s.name), s.name))[:limit]


def in_query(query: str) -> tuple[list[str], bool]:
    """API names a query mentions (exact identifiers), and whether the query is nothing but one name."""
    t = _table()
    q = query.strip()
    whole = lookup(q) if _IDENT.fullmatch(_bare(q) or "-") else None
    if whole:
        return [whole.name], True
    hits = []
    for m in _IDENT.finditer(q):
        w = m.group(0)
        if w not in t:
            continue
        # in prose only code-looking mentions count: CamelCase inside (DataCopy), digits or underscores
        # (Sort32, ICPU_RUN_KF), a call or template (Exp(, Cast<), or a qualified name (AscendC::Add);
        # plain words that happen to be API names ("Input", "Select", "Format") do not
        after = q[m.end():m.end() + 1]
        before = q[max(0, m.start() - 2):m.start()]
        code_like = (any(c.isupper() for c in w[1:]) or any(c.isdigit() or c == "_" for c in w)
                     or after in ("(", "<") or before == "::")
        if code_like:
            hits.append(w)
    return list(dict.fromkeys(hits)), False


def reload() -> None:
    _tables.cache_clear()
