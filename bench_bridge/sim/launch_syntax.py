"""Rewrite CANN's kernel-launch syntax ``kernel<<<blocks, l2ctrl, stream>>>(args)`` and bisheng's
bracket function attributes (``[aicore]``, ``[host, aicore]``) into plain C++.

g++ cannot parse ``<<<...>>>``; the rewrite turns it into
``::kgen::launch_named("kernel", kernel, ::kgen::LaunchCfg(blocks, l2ctrl, stream), args)``.
Line structure is preserved (newlines inside the call stay where they were), so compiler and
emulator diagnostics point at the user's original lines.

bisheng (the clang-based AscendC compiler) spells its execution-space qualifiers as bracket attributes
before a declaration: ``__forceinline__ [aicore] void f()``, ``[host, aicore]`` for code built for both
sides (Catlass's ``CATLASS_DEVICE`` / ``CATLASS_HOST_DEVICE``); ``__aicore__`` is the macro spelling of
``[aicore]``. On the emulator every function runs on the host and ``__aicore__`` is empty, so each such
attribute becomes blanks of the same length: lines and columns stay where the user wrote them. An
attribute is a bracketed list of ``aicore`` / ``host`` that is followed, on its line, by the start of
a declaration (an identifier, ``::``, ``~``) or by the end of the line (a macro body such as
``#define CATLASS_DEVICE __forceinline__ [aicore]``); ``a[host] = 1`` and lambdas ``[host](...)`` are
left alone.
"""
from __future__ import annotations

import re

_CALLEE_CHARS = re.compile(r"[A-Za-z0-9_:]")


class LaunchSyntaxError(ValueError):
    """A ``<<<`` that does not form a well-formed launch; carries the 1-based line."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip_code_spans(text: str) -> list[tuple[int, int]]:
    """Spans of comments and string/char literals, where ``<<<`` must not be rewritten."""
    spans = []
    for m in re.finditer(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', text, re.S):
        spans.append((m.start(), m.end()))
    return spans


def _callee_start(text: str, end: int) -> int:
    """Walk back from ``end`` over an identifier with optional template arguments."""
    i = end
    while i > 0 and text[i - 1].isspace():
        i -= 1
    if i > 0 and text[i - 1] == ">":  # template arguments: kernel<half, 8>
        depth = 0
        while i > 0:
            i -= 1
            if text[i] == ">":
                depth += 1
            elif text[i] == "<":
                depth -= 1
                if depth == 0:
                    break
    while i > 0 and _CALLEE_CHARS.match(text[i - 1]):
        i -= 1
    return i


def _match_close(text: str, start: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i
    return -1


_BRACKET_ATTR = re.compile(r"\[[ \t]*(?:aicore|host)(?:[ \t]*,[ \t]*(?:aicore|host))*[ \t]*\](?=[ \t]*(?:[A-Za-z_~]|::|\\?\r?\n|$))")


def has_dialect(text: str) -> bool:
    """Whether ``text`` may hold syntax the rewrite changes (cheap pre-check before rewriting)."""
    return "<<<" in text or bool(_BRACKET_ATTR.search(text))


def rewrite_attributes(text: str, skip: list[tuple[int, int]] | None = None) -> str:
    """Blank out bisheng bracket attributes (see the module doc); same length, same lines."""
    skip = _skip_code_spans(text) if skip is None else skip

    def blank(m: re.Match) -> str:
        if any(a <= m.start() < b for a, b in skip):
            return m.group(0)
        return " " * len(m.group(0))

    return _BRACKET_ATTR.sub(blank, text)


def rewrite_launches(text: str) -> tuple[str, list[str]]:
    """Return the rewritten source (launches and bracket attributes) and the names of the kernels launched."""
    skip = _skip_code_spans(text)
    text = rewrite_attributes(text, skip)       # same length: the code spans stay where they were
    out: list[str] = []
    kernels: list[str] = []
    pos = 0
    search = 0
    while True:
        k = text.find("<<<", search)
        if k < 0:
            break
        if any(a <= k < b for a, b in skip):
            search = k + 3
            continue
        close = text.find(">>>", k + 3)
        if close < 0:
            raise LaunchSyntaxError("'<<<' without a closing '>>>'", _line_of(text, k))
        cstart = _callee_start(text, k)
        callee = text[cstart:k].strip()
        if not callee:
            raise LaunchSyntaxError("'<<<' is not preceded by a kernel name", _line_of(text, k))
        j = close + 3
        while j < len(text) and text[j].isspace():
            j += 1
        if j >= len(text) or text[j] != "(":
            raise LaunchSyntaxError("kernel launch '<<<...>>>' must be followed by an argument list", _line_of(text, k))
        pend = _match_close(text, j, "(", ")")
        if pend < 0:
            raise LaunchSyntaxError("unbalanced parentheses in kernel launch arguments", _line_of(text, k))
        cfg = text[k + 3 : close]
        args = text[j + 1 : pend]
        gap_newlines = text.count("\n", cstart, k) + text.count("\n", close, j)
        name = re.sub(r"<.*", "", callee, flags=re.S).split("::")[-1]
        kernels.append(name)
        out.append(text[pos:cstart])
        call = f'::kgen::launch_named("{name}", {callee}, ::kgen::LaunchCfg({cfg})'
        if args.strip():
            call += f", {args}"
        call += ")" + "\n" * gap_newlines
        out.append(call)
        pos = pend + 1
        search = pend + 1
    out.append(text[pos:])
    return "".join(out), kernels
