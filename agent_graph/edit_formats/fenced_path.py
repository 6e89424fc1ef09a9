"""Markdown replies with one fenced block per file, the path given in one of three common places:

1. the fence's info string: ```` ```cpp op_host/add.cpp ````, ```` ```cpp:op_kernel/add.cpp ````,
   ```` ```cpp title="op_host/add_tiling.h" ````;
2. the block's first line, as a comment: ``// file: op_kernel/add.cpp``, ``/* op_host/add.cpp */``;
3. the nearest non-blank line before the fence: ``**op_host/add.cpp**``, ``### 2. Host (`op_host/add.cpp`)``,
   ``File: op_kernel/add.cpp``.

Blocks with no path anywhere are returned with an empty path; the caller may place them by content.
"""
from __future__ import annotations

import re

from agent_graph.edit_formats.common import (Block, find_path, looks_like_host, looks_like_kernel,
                                             looks_like_tiling_header, scan_fences)

NAME = "fenced_path"
_FIRST_LINE = re.compile(r"^\s*(?://+|/\*+|#)\s*(?:(?:file(?:name)?|path)\s*[:=]\s*)?(?P<rest>.*?)\s*(?:\*/)?\s*$",
                         re.IGNORECASE)
_NOT_PATH_LINE = re.compile(r"^\s*#\s*(?:include|define|if|ifn?def|endif|pragma|else|elif|undef)\b")


def _path_from_info(info: str) -> str | None:
    # "cpp", "c++" alone carry no path; anything with a file name does
    return find_path(info) if info else None


def _path_from_first_line(body: str) -> str | None:
    first = next((ln for ln in body.split("\n") if ln.strip()), "")
    if _NOT_PATH_LINE.match(first):
        return None
    m = _FIRST_LINE.match(first)
    if not m or not (first.lstrip().startswith(("/", "#"))):
        return None
    rest = m.group("rest")
    # only a comment that is (mostly) just a path, not prose that mentions one
    path = find_path(rest)
    if path and len(rest.replace(path, "").split()) <= 2:
        return path
    return None


def _conflicts(path: str, code: str) -> bool:
    """A path mentioned near a block that cannot be that block's file: a tiling header that holds a kernel
    or host code, or a kernel/host source that holds only tiling-data definitions."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name.endswith("_tiling.h"):
        return not looks_like_tiling_header(code) and (looks_like_kernel(code) or looks_like_host(code))
    return looks_like_tiling_header(code) and not (looks_like_kernel(code) or looks_like_host(code))


def find_blocks(text: str) -> list[Block]:
    lines = text.split("\n")
    blocks: list[Block] = []
    for f in scan_fences(lines):
        path, where = _path_from_info(f.info), "fence info"
        if not path:
            path, where = _path_from_first_line(f.body), "first line"
        if not path:
            k = f.start - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            before = lines[k] if k >= 0 else ""
            path, where = (find_path(before) if len(before) < 200 else None), "line before"
            if path and _conflicts(path, f.body):
                path = None        # prose naming another file ("the kernel reads add_tiling.h:"): place by content
        blocks.append(Block(path=path or "", content=f.body, closed=f.end is not None, where=where if path else ""))
    return blocks
