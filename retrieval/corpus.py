"""Pages of the knowledge base: markdown files with YAML front matter."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from retrieval.settings import KB_ROOT

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when available: ~20x faster


@dataclass
class Page:
    """One document: a KB page, a markdown file of the user's, or a header file's declarations."""

    id: str                       # stable id, e.g. "api/DataCopyPad" or "user:docs/foo.md"
    title: str
    body: str                     # markdown without front matter
    source: str                   # where it came from (path shown to the user)
    meta: dict = field(default_factory=dict)

    @property
    def apis(self) -> list[str]:
        return [str(a) for a in (self.meta.get("api") or [])]

    @property
    def keywords(self) -> list[str]:
        """Search terms of the page: its keywords, other names of its APIs (aliases), error codes, the
        plain-words description of what it does (``plain``) and its Chinese summary (``summary_zh``)."""
        out = []
        for key in ("keywords", "aliases", "codes", "plain", "summary_zh"):
            v = self.meta.get(key) or []
            out += [str(k) for k in (v if isinstance(v, list) else [v]) if str(k) != "compile"]
        return list(dict.fromkeys(out))

    @property
    def summary_zh(self) -> str:
        """The page's one-line Chinese summary (front matter ``summary_zh``), "" when it has none."""
        return str(self.meta.get("summary_zh") or "")

    @property
    def kind(self) -> str:
        return str(self.meta.get("kind") or self.id.split("/", 1)[0])

    def digest(self) -> str:
        h = hashlib.sha256()
        h.update(self.title.encode())
        h.update(b"\0")
        h.update(self.body.encode())
        h.update(b"\0")
        h.update(repr(sorted(self.meta.items(), key=lambda kv: kv[0])).encode())
        return h.hexdigest()[:32]


def split_front_matter(text: str) -> tuple[dict, str]:
    """Return (front matter dict, body). A file without front matter has an empty dict."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        return {}, text
    raw = text[3:end]
    rest = text[end + 4:]
    rest = rest[1:] if rest.startswith("\n") else rest
    try:
        meta = yaml.load(raw, Loader=_Loader) or {}
    except yaml.YAMLError:
        return {}, text
    if not isinstance(meta, dict):
        return {}, text
    return meta, rest


def first_heading(body: str) -> str | None:
    for line in body.splitlines():
        s = line.strip()
        if s.startswith("#"):
            return s.lstrip("#").strip() or None
    return None


def load_page(path: Path, page_id: str, source: str | None = None) -> Page:
    text = path.read_text(encoding="utf-8", errors="replace")
    meta, body = split_front_matter(text)
    title = str(meta.get("title") or first_heading(body) or path.stem)
    return Page(id=page_id, title=title, body=body, source=source or str(path), meta=meta)


def kb_files(root: Path = KB_ROOT) -> list[Path]:
    return sorted(p for p in root.rglob("*.md") if p.is_file() and not p.name.startswith("_"))


def kb_fingerprint(root: Path = KB_ROOT) -> str:
    """A hash of every KB file's path and bytes: unchanged fingerprint, unchanged corpus."""
    h = hashlib.sha1()
    for p in kb_files(root):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()


_KB_CACHE: dict[tuple[str, str], list[Page]] = {}


def load_kb(root: Path = KB_ROOT) -> list[Page]:
    """Every page of the shipped knowledge base; ids are paths under kb/ without ``.md``
    (parsed once per process while the files do not change)."""
    key = (str(root), kb_fingerprint(root))
    if key not in _KB_CACHE:
        pages = []
        for p in kb_files(root):
            rel = p.relative_to(root).with_suffix("").as_posix()
            pages.append(load_page(p, rel, source=f"kb/{rel}.md"))
        _KB_CACHE.clear()
        _KB_CACHE[key] = pages
    return list(_KB_CACHE[key])
