"""Ingestion of a user's documentation: a folder of markdown (e.g. an asc-devkit ``docs/``
checkout, Chinese or English) or a C/C++ include tree (declarations and their comments)."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from retrieval.corpus import Page, first_heading, split_front_matter

MD_EXT = {".md", ".markdown"}
HDR_EXT = {".h", ".hh", ".hpp", ".hxx", ".inc", ".inl"}
MAX_FILE_BYTES = 2_000_000


class IngestError(ValueError):
    """A user mistake (missing path, nothing to index): one line for the CLI."""


def source_key(root: Path) -> str:
    """Stable key of a folder: its name plus a short hash of its absolute path."""
    r = root.resolve()
    return f"{r.name or 'root'}-{hashlib.sha1(str(r).encode()).hexdigest()[:8]}"


def detect_kind(root: Path) -> str:
    """``markdown`` or ``headers``, whichever files the folder holds more of."""
    md = hdr = 0
    for p in root.rglob("*"):
        if p.suffix.lower() in MD_EXT:
            md += 1
        elif p.suffix.lower() in HDR_EXT:
            hdr += 1
    if md == 0 and hdr == 0:
        raise IngestError(f"no markdown (.md) or header (.h/.hpp) files under {root}")
    return "markdown" if md >= hdr else "headers"


def _files(root: Path, exts: set[str]) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in exts
                  and not any(part.startswith(".") for part in p.relative_to(root).parts))


# ------------------------------------------------------------------ markdown
def markdown_pages(root: Path) -> list[Page]:
    key = source_key(root)
    pages = []
    for f in _files(root, MD_EXT):
        if f.stat().st_size > MAX_FILE_BYTES:
            continue
        text = f.read_text(encoding="utf-8", errors="replace")
        meta, body = split_front_matter(text)
        body = re.sub(r"<[^>\n]{1,200}>", " ", body)  # html tags common in converted docs
        rel = f.relative_to(root).as_posix()
        title = str(meta.get("title") or first_heading(body) or f.stem)
        meta = {k: v for k, v in meta.items() if isinstance(v, (str, int, float, list))}
        meta["kind"] = "user-markdown"
        if "api" not in meta and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", f.stem):
            meta["api"] = [f.stem]
        pages.append(Page(id=f"{key}:{rel}", title=title, body=body, source=str(f), meta=meta))
    return pages


# ------------------------------------------------------------------ headers
_DECL_START = re.compile(r"^\s*(template\s*<|(?:class|struct|enum(?:\s+class)?|union)\s+\w|using\s+\w+\s*=|typedef\s|#define\s+\w|"
                         r"(?:[\w:<>,\*&\s]+?)\b\w+\s*\()")
_SKIP = re.compile(r"^\s*(#\s*(include|if|ifdef|ifndef|else|elif|endif|pragma|undef)|namespace\b|extern\s+\"C\"\s*\{|\}|public:|private:|protected:|return\b|static_assert)")
_NAME_PATTERNS = [
    re.compile(r"#define\s+(\w+)"),
    re.compile(r"\b(?:class|struct|enum(?:\s+class)?|union)\s+(?:__\w+__\s+)?(\w+)"),
    re.compile(r"\busing\s+(\w+)\s*="),
    re.compile(r"\btypedef\b.*?\b(\w+)\s*;"),
    re.compile(r"(~?\w+|operator\s*\S+)\s*\((?![^()]*\)\s*\()"),
]
_GUARD = re.compile(r"#define\s+\w+_(H|H_|HPP|HPP_|INC|INCLUDED)_*\s*")
_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "static_assert", "decltype", "alignas", "__attribute__"}


def _decl_name(decl: str) -> str | None:
    head = decl
    if head.lstrip().startswith("template"):
        depth, i = 0, head.index("<")
        for i in range(head.index("<"), len(head)):
            depth += {"<": 1, ">": -1}.get(head[i], 0)
            if depth == 0:
                break
        head = head[i + 1:]
    for pat in _NAME_PATTERNS:
        m = pat.search(head)
        if m and m.group(1) not in _KEYWORDS and not m.group(1).startswith("__"):
            return m.group(1)
    return None


def header_declarations(text: str) -> list[tuple[str, str, str]]:
    """(name, declaration, comment) for each declaration in a C/C++ header, bodies skipped."""
    lines = text.splitlines()
    out: list[tuple[str, str, str]] = []
    comment: list[str] = []
    i = 0
    in_block = False
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if in_block:
            comment.append(s.rstrip("*/").lstrip("*").strip())
            if "*/" in s:
                in_block = False
            i += 1
            continue
        if s.startswith("/*"):
            comment = [] if not s.startswith(("/**", "/*!")) and not comment else comment
            body = s[2:].lstrip("*!").strip()
            if "*/" in body:
                comment.append(body.split("*/")[0].strip())
            else:
                comment.append(body)
                in_block = True
            i += 1
            continue
        if s.startswith("//"):
            comment.append(s.lstrip("/!<").strip())
            i += 1
            continue
        if not s:
            comment = [] if (i + 1 < len(lines) and not lines[i + 1].strip()) else comment
            i += 1
            continue
        if _SKIP.match(s) or not _DECL_START.match(line):
            if s.startswith("#define") is False:
                comment = []
            i += 1
            continue
        # gather the declaration up to ';' or '{' (macros: to the end of the logical line)
        decl_lines = [s]
        j = i
        if s.startswith("#define"):
            while decl_lines[-1].endswith("\\") and j + 1 < len(lines):
                j += 1
                decl_lines.append(lines[j].strip())
        else:
            while (not re.search(r"[;{}]\s*(//.*)?$", decl_lines[-1]) and j + 1 < len(lines) and j - i < 30
                   and not lines[j + 1].lstrip().startswith("#")):
                j += 1
                decl_lines.append(lines[j].strip())
        decl = " ".join(decl_lines)
        opens_body = decl.rstrip().endswith("{") or re.search(r"\{[^}]*$", decl) is not None
        decl = re.split(r"\s*\{", decl, maxsplit=1)[0].rstrip(";").strip()
        name = _decl_name(decl)
        if name and _GUARD.fullmatch(decl):
            name = None   # include guard
        if name:
            out.append((name, decl, " ".join(c for c in comment if c).strip()))
        comment = []
        i = j + 1
        is_type = re.match(r"^\s*(template\s*<.*?>\s*)?(class|struct|union|enum)\b", decl) is not None
        if opens_body and not is_type:
            depth = sum(l.count("{") - l.count("}") for l in decl_lines)
            while depth > 0 and i < len(lines):
                depth += lines[i].count("{") - lines[i].count("}")
                i += 1
    return out


def header_pages(root: Path) -> list[Page]:
    key = source_key(root)
    pages = []
    for f in _files(root, HDR_EXT):
        if f.stat().st_size > MAX_FILE_BYTES:
            continue
        decls = header_declarations(f.read_text(encoding="utf-8", errors="replace"))
        if not decls:
            continue
        rel = f.relative_to(root).as_posix()
        grouped: dict[str, tuple[list[str], list[str]]] = {}   # name -> (declarations, comments), overloads together
        for name, decl, comment in decls:
            ds, cs = grouped.setdefault(name, ([], []))
            if decl not in ds:
                ds.append(decl)
            if comment and comment not in cs:
                cs.append(comment)
        parts = [f"# {rel}", ""]
        for name, (ds, cs) in grouped.items():
            parts += [f"## {name}", ""]
            for c in cs:
                parts += [c, ""]
            parts += ["```cpp"] + [d + ";" for d in ds] + ["```", ""]
        names = list(dict.fromkeys(n for n, _, _ in decls))
        pages.append(Page(id=f"{key}:{rel}", title=rel, body="\n".join(parts), source=str(f),
                          meta={"kind": "user-header", "api": names[:200], "header": rel}))
    return pages


def pages_for(root: Path, kind: str | None = None) -> tuple[str, list[Page]]:
    """(kind, pages) for a folder (or a single file)."""
    if not root.exists():
        raise IngestError(f"no such file or directory: {root}")
    if root.is_file():
        k = "markdown" if root.suffix.lower() in MD_EXT else "headers" if root.suffix.lower() in HDR_EXT else None
        if k is None:
            raise IngestError(f"not a markdown or header file: {root}")
        tmp_pages = markdown_pages(root.parent) if k == "markdown" else header_pages(root.parent)
        rel = root.name
        return k, [p for p in tmp_pages if p.id.endswith(":" + rel)]
    kind = kind or detect_kind(root)
    return kind, (markdown_pages(root) if kind == "markdown" else header_pages(root))
