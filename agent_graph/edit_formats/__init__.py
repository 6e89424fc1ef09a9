"""Turn a model's reply into project files, whatever common layout it used (one module per format).

``parse_reply(text, op_name, mode)`` returns :class:`ParsedReply` (project-relative paths -> text) or
:class:`ParseFailure` whose ``complaint`` is sent back to the model verbatim. Modes:

- ``project``: three files, ``op_host/<op>_tiling.h``, ``op_host/<op>.cpp``, ``op_kernel/<op>.cpp``;
- ``kernel``: only ``op_kernel/<op>.cpp`` (NPUKernelBench's kernel-only mode).

Formats tried, in order (a file found by an earlier one wins): ``kernel_impl`` (kernel mode),
``npukb`` (``=====`` header lines), ``fenced_path`` (a path in the fence info, on the first line or on
the line before). Reasoning (``<think>...</think>``) is dropped first; code blocks without any path are
placed by what they contain when that is unambiguous (a tiling-data header, host code, a kernel).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, get_args

from agent_graph.edit_formats import fenced_path, kernel_impl, npukb
from agent_graph.edit_formats.common import (CODE_SUFFIXES, OP_DIRS, Block, PathRejected, looks_like_host, looks_like_kernel,
                                             looks_like_tiling_header, normalise_path, scan_fences,
                                             strip_reasoning)
from bench_bridge.api import snake_case

ReplyMode = Literal["project", "kernel"]
"""What a reply holds: the whole op project (host + tiling + kernel), or the kernel file only."""
MODES: tuple[ReplyMode, ...] = get_args(ReplyMode)


@dataclass
class ParsedReply:
    files: dict[str, str]     # project-relative: op_host/<op>.cpp, op_host/<op>_tiling.h, op_kernel/<op>.cpp
    format: str               # "npukb" | "fenced_path" | "kernel_impl" | "by_content", joined with "+" when mixed


@dataclass
class ParseFailure:
    complaint: str            # sent back to the model verbatim


def op_file_stem(op_name: str) -> str:
    """File stem of an operator: ``AddCustom`` -> ``add_custom``; snake-case names are kept."""
    name = op_name.strip()
    return snake_case(name) if any(c.isupper() for c in name) else name


def expected_files(op_name: str, mode: ReplyMode = "project") -> list[str]:
    op = op_file_stem(op_name)
    if mode == "kernel":
        return [f"op_kernel/{op}.cpp"]
    return [f"op_host/{op}_tiling.h", f"op_host/{op}.cpp", f"op_kernel/{op}.cpp"]


def _place(path: str, content: str, op: str) -> str | None:
    """Project path of a normalised path; bare file names are put in op_host/ or op_kernel/ by content.
    Only C/C++ sources and headers are taken (a CMakeLists.txt or script in a reply is not written)."""
    if not path.endswith(CODE_SUFFIXES):
        return None
    if path.split("/")[0] in OP_DIRS:
        return path
    if "/" in path or not path:
        return None
    if path.endswith("_tiling.h"):
        return f"op_host/{path}"
    if path == f"{op}.cpp":
        return f"op_kernel/{path}" if looks_like_kernel(content) else f"op_host/{path}"
    if path.endswith((".h", ".hpp")):
        return f"op_kernel/{path}" if looks_like_kernel(content) else f"op_host/{path}"
    if looks_like_kernel(content):
        return f"op_kernel/{path}"
    if looks_like_host(content):
        return f"op_host/{path}"
    return None


def _role(path: str) -> str:
    if path.startswith("op_host/") and path.endswith("_tiling.h"):
        return "tiling"
    if path.startswith("op_host/") and path.endswith((".cpp", ".cc")):
        return "host"
    if path.startswith("op_kernel/") and path.endswith((".cpp", ".cc")):
        return "kernel"
    return "other"


def format_hint(op_name: str, mode: ReplyMode = "project") -> str:
    """How the files must be written, in one clause (used in complaints and repair prompts)."""
    op = op_file_stem(op_name)
    files = expected_files(op, mode)
    if mode == "kernel":
        return (f"expected one file, {files[0]}: the whole kernel source as one ```cpp fenced block between "
                "<kernel_impl> and </kernel_impl>")
    return (f"expected three files: {', '.join(files)}, each written as a header line "
            f"`{npukb.header_line(files[0])}` followed by one ```cpp fenced block")


def _collect(text: str, op: str, mode: ReplyMode) -> tuple[dict[str, tuple[Block, str]], list[Block]] | ParseFailure:
    """path -> (block, format name) over all formats (earlier formats win, later blocks of one format win)."""
    by_format: list[tuple[str, list[Block]]] = []
    if mode == "kernel":
        by_format.append((kernel_impl.NAME, kernel_impl.find_blocks(text, f"op_kernel/{op}.cpp")))
    by_format.append((npukb.NAME, npukb.find_blocks(text)))
    fenced = fenced_path.find_blocks(text)
    by_format.append((fenced_path.NAME, [b for b in fenced if b.path]))
    files: dict[str, tuple[Block, str]] = {}
    for name, blocks in by_format:
        mine: dict[str, Block] = {}
        for b in blocks:
            try:
                norm = normalise_path(b.path)
            except PathRejected as e:
                return ParseFailure(f"file path {e} ({format_hint(op, mode)})")
            placed = _place(norm, b.content, op)
            if placed:
                mine[placed] = b
        for path, b in mine.items():
            files.setdefault(path, (b, name))
    return files, [b for b in fenced if not b.path]


def _fill_by_content(files: dict[str, tuple[Block, str]], unlabeled: list[Block], need: list[str]) -> None:
    """Place unlabeled code blocks into missing files when exactly one block fits each role."""
    tests = {"tiling": looks_like_tiling_header, "host": looks_like_host,
             "kernel": lambda c: looks_like_kernel(c) and not looks_like_tiling_header(c)}
    for path in need:
        if path in files:
            continue
        fits = [b for b in unlabeled if tests[_role(path)](b.content)]
        if len(fits) == 1:
            files[path] = (fits[0], "by_content")


def _rename_near_misses(files: dict[str, tuple[Block, str]], need: list[str]) -> None:
    """A required file missing but exactly one file of its role present under another name: use that one.
    A renamed header is renamed in the other files' ``#include "..."`` lines too."""
    for path in need:
        if path in files:
            continue
        others = [p for p in files if _role(p) == _role(path) and p not in need]
        if len(others) == 1:
            files[path] = files.pop(others[0])
            old, new = Path(others[0]).name, Path(path).name
            if old.endswith((".h", ".hpp")):
                pattern = re.compile(r'(#\s*include\s*")' + re.escape(old) + '"')
                for p, (b, fmt) in list(files.items()):
                    files[p] = (replace(b, content=pattern.sub(lambda m: m.group(1) + new + '"', b.content)), fmt)


def _parse(text: str, op: str, mode: ReplyMode) -> ParsedReply | ParseFailure:
    got = _collect(text, op, mode)
    if isinstance(got, ParseFailure):
        return got
    files, unlabeled = got
    need = expected_files(op, mode)
    _rename_near_misses(files, need)
    _fill_by_content(files, unlabeled, need)
    missing = [p for p in need if p not in files]
    if missing:
        found = sorted(p for p in files if p.split("/")[0] in OP_DIRS)
        what = " or ".join(missing) if len(missing) <= 2 else ", ".join(missing[:-1]) + " or " + missing[-1]
        seen = f" (found only: {', '.join(found)})" if found else ""
        return ParseFailure(f"no {what} block found{seen}; {format_hint(op, mode)}.")
    for p in need:
        b = files[p][0]
        if not b.closed:
            return ParseFailure(f"the {p} block is not closed (the reply was probably cut off by the token limit); "
                                f"send the files again, complete, with less explanation; {format_hint(op, mode)}.")
        if not b.content.strip():
            return ParseFailure(f"the {p} block is empty; {format_hint(op, mode)}.")
    keep = ("op_kernel",) if mode == "kernel" else OP_DIRS     # kernel-only: the host side is given, never replaced
    out = {p: b.content.rstrip() + "\n" for p, (b, _) in files.items() if p.split("/")[0] in keep and b.content.strip()}
    used: list[str] = []
    for p in need:
        if files[p][1] not in used:
            used.append(files[p][1])
    return ParsedReply(files=out, format="+".join(used))


def _has_code(text: str) -> bool:
    return bool(scan_fences(text.split("\n"))) or bool(npukb.find_blocks(text)) or "<kernel_impl>" in text.lower()


def parse_reply(text: str, op_name: str, mode: ReplyMode = "project") -> ParsedReply | ParseFailure:
    """The files of a model reply, or a complaint naming precisely what is missing or wrong."""
    if mode not in MODES:
        raise ValueError(f"unknown reply mode {mode!r} (expected one of {', '.join(MODES)})")
    op = op_file_stem(op_name)
    answer = strip_reasoning(text)
    if not answer.strip():
        if text.strip():
            first = _parse(text, op, mode)     # files written inside the reasoning are still files
            if isinstance(first, ParsedReply):
                return first
            return ParseFailure("the reply holds only reasoning (<think>...</think>) and no files; after reasoning, "
                                f"write the answer: {format_hint(op, mode)}.")
        return ParseFailure(f"the reply is empty; {format_hint(op, mode)}.")
    result = _parse(answer, op, mode)
    if isinstance(result, ParseFailure) and answer != text and not _has_code(answer):
        # the answer part holds no code at all: the files may have been written inside the reasoning
        whole = _parse(text, op, mode)
        if isinstance(whole, ParsedReply):
            return whole
    return result


__all__ = ["MODES", "ReplyMode", "ParseFailure", "ParsedReply", "expected_files", "format_hint", "op_file_stem", "parse_reply"]
