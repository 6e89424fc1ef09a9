"""Pieces every reply format shares: reasoning removal, fenced-block scanning, path normalisation.

A *block* is one file the model wrote: the path it gave (raw, as written) and the text. Formats only
find blocks; ``agent_graph.edit_formats`` normalises their paths and checks that the files a project
needs are all there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# Markdown fences (CommonMark): three or more backticks or tildes, at most three spaces of indent;
# the closing fence uses the same character, at least as many, and nothing else on its line.
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")
_THINK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think(?:ing)?>", re.IGNORECASE)

CODE_SUFFIXES = (".cpp", ".h", ".hpp", ".cc", ".cxx", ".c", ".hh")
OP_DIRS = ("op_host", "op_kernel")


@dataclass
class Fence:
    """One fenced block: ``start``/``end`` are line indexes of the opening/closing fence (end None: never closed)."""

    start: int
    end: int | None
    info: str
    body: str


@dataclass
class Block:
    path: str          # as the model wrote it (normalised later)
    content: str
    closed: bool = True
    where: str = ""    # how the path was given, for messages: "header", "fence info", "first line", "line before"


class PathRejected(ValueError):
    """A path that would write outside the project (absolute, or climbing with ..)."""


def strip_reasoning(text: str) -> str:
    """The reply without its reasoning: ``<think>...</think>`` blocks, text before a lone ``</think>``
    (servers that strip the opening tag), and an unterminated ``<think>`` to the end."""
    text = _THINK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end():]
    m = _THINK_OPEN.search(text)
    if m:
        text = text[: m.start()]
    return text


def scan_fences(lines: list[str]) -> list[Fence]:
    """All top-level fenced blocks of ``lines``, in order; an unclosed one runs to the end."""
    out: list[Fence] = []
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i])
        if not m or (m.group("fence")[0] == "`" and "`" in m.group("info")):
            i += 1
            continue
        fence = m.group("fence")
        close = re.compile(r"^[ \t]{0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        end = j if j < len(lines) else None
        out.append(Fence(start=i, end=end, info=m.group("info").strip(), body="\n".join(lines[i + 1:j])))
        i = j + 1
    return out


_PATH_TOKEN = re.compile(r"(?:[A-Za-z]:)?[\w.\\/-]*[\w-]\.(?:cpp|hpp|h|cc|cxx|c|hh)\b")


def find_path(text: str) -> str | None:
    """The first thing in ``text`` that looks like a C/C++ file path (``op_host/x.cpp``, ``x_tiling.h``)."""
    m = _PATH_TOKEN.search(text.replace("\\\\", "\\"))
    return m.group(0) if m else None


def normalise_path(raw: str) -> str:
    """A project-relative path: backslashes to slashes, no ``./``, anything before ``op_host/``/``op_kernel/``
    (the op folder name, ``answer/0/``...) dropped. Raises PathRejected for absolute or ``..`` paths."""
    p = raw.strip().strip("`'\"*").replace("\\", "/")
    if p.startswith("/") or re.match(r"^[A-Za-z]:/", p) or p.startswith("~"):
        raise PathRejected(f"{raw.strip()!r} is an absolute path; give paths relative to the project "
                           "(op_host/..., op_kernel/...)")
    parts = [x for x in p.split("/") if x not in ("", ".")]
    if ".." in parts:
        raise PathRejected(f"{raw.strip()!r} climbs out of the project with '..'; give paths relative to the "
                           "project (op_host/..., op_kernel/...)")
    for k, part in enumerate(parts):
        if part in OP_DIRS:
            return "/".join(parts[k:])
    return parts[-1] if parts else ""


def looks_like_kernel(code: str) -> bool:
    """Device code: the kernel qualifiers every AscendC kernel entry carries."""
    return "__aicore__" in code or "__global__" in code


def looks_like_tiling_header(code: str) -> bool:
    return "BEGIN_TILING_DATA_DEF" in code or "TILING_DATA_FIELD_DEF" in code


def looks_like_host(code: str) -> bool:
    return ("OpDef" in code or "TilingFunc" in code or "TilingContext" in code) and not looks_like_kernel(code)
