"""The lowering's last pass: a drafted kernel keeps only what it uses.

The templates are written for every program a template serves (row and flat layouts, scratch slots,
split rows, runtime attrs); one program uses a part of them. This pass removes, until nothing changes:
local declarations never read in their scope, member functions with an empty body (and their calls), class
members never read (with their ``InitBuffer``/``SetGlobalBuffer`` lines and assignments), ``Init`` parameters never read (and their arguments at the call), and helper
functions never called. It only removes declarations whose initialiser has no effect (no ``AllocTensor``,
``DeQue``, ``EnQue``), so what remains computes exactly what the unpruned kernel computed.
"""
from __future__ import annotations

import re

_EFFECTS = ("AllocTensor", "DeQue", "EnQue", "FreeTensor", "SetValue", "DataCopy", "Duplicate", "Cast(")
_LOCAL = re.compile(r"^ {8,}(?:const\s+)?(?:LocalTensor<[^>]+>|uint32_t|uint64_t|int32_t|int64_t|float|uint8_t|auto)\s+"
                    r"(\w+)\s*=\s*(.+);\s*$")
_MEMBER = re.compile(r"^    (?!return\b)((?:TBuf|TQue|GlobalTensor|LocalTensor)<[^;]*>|float|uint32_t|uint64_t|int32_t|int64_t)\s+"
                     r"([^;()]+);\s*$")
_HELPER = re.compile(r"^(?:template <[^>]*>\n)?__aicore__ inline [^\n]*?\b(\w+)\(", re.M)


def _uses(name: str, text: str) -> int:
    return len(re.findall(rf"\b{re.escape(name)}\b", text))


def _scope_end(lines: list[str], i: int) -> int:
    """Index of the line closing the block a declaration on line ``i`` lives in (its scope ends there)."""
    depth = 0
    for j in range(i + 1, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth < 0:
            return j
    return len(lines) - 1


def _unused_locals(src: str) -> tuple[str, bool]:
    lines = src.split("\n")
    for i, line in enumerate(lines):
        m = _LOCAL.match(line)
        if not m or ";" in m.group(2) or any(e in m.group(2) for e in _EFFECTS):
            continue                          # (several statements on one line: not a plain declaration)
        # read only after its declaration and inside its block (a same-named local of another method is another)
        if _uses(m.group(1), "\n".join(lines[i + 1:_scope_end(lines, i) + 1])) == 0:
            del lines[i]
            return "\n".join(lines), True
    return src, False


_EMPTY_METHOD = re.compile(r"^    __aicore__ inline void (\w+)\(([^)]*)\)\n    \{\n\s*\n?    \}\n", re.M)


def _empty_methods(src: str) -> tuple[str, bool]:
    """A member function with an empty body goes, with its calls (``Name(...);`` statements)."""
    m = _EMPTY_METHOD.search(src)
    if not m:
        return src, False
    name = m.group(1)
    src = src[:m.start()] + src[m.end():]
    src = re.sub(rf"\n[ \t]*{name}\([^;]*\);[ \t]*(?=\n)", "", src)
    src = re.sub(r"\n\n\n+(    \S)", r"\n\n\1", src)   # no run of blank lines where it stood
    return src, True


def _member_names(decl: str) -> list[str]:
    return [p.split("=")[0].strip() for p in decl.split(",")]


def _unused_members(src: str) -> tuple[str, bool]:
    lines = src.split("\n")
    for i, line in enumerate(lines):
        m = _MEMBER.match(line)
        if not m or line.lstrip().startswith(("return", "//")):
            continue
        names = _member_names(m.group(2))
        for name in names:
            if not re.fullmatch(r"\w+_", name):
                continue
            rest = [(j, ln) for j, ln in enumerate(lines) if j != i and _uses(name, ln)]
            # uses that only set the member up: InitBuffer, SetGlobalBuffer, a plain assignment
            setup = [j for j, ln in rest
                     if re.match(rf"^\s+pipe_\.InitBuffer\({name}\b", ln)
                     or re.match(rf"^\s+{name}\.SetGlobalBuffer\(", ln)
                     or (re.match(rf"^\s+{name} = [^;]*;\s*$", ln) and not any(e in ln for e in _EFFECTS)
                         and _uses(name, ln.split("=", 1)[1]) == 0)]
            if len(setup) != len(rest):
                continue
            keep = [p for p in m.group(2).split(",") if p.split("=")[0].strip() != name]
            new = lines[:]
            new[i] = f"    {m.group(1)} {','.join(keep).strip()};" if keep else None
            for j in setup:
                new[j] = None
            return "\n".join(ln for ln in new if ln is not None), True
    return src, False


def _block_end(lines: list[str], start: int) -> int:
    """Index of the line closing the brace block that opens at or after ``start``."""
    depth, opened = 0, False
    for j in range(start, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        opened = opened or "{" in lines[j]
        if opened and depth == 0:
            return j
    return len(lines) - 1


def _split_args(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "(<{[":
            depth += 1
        elif ch in ")>}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + ([cur] if cur.strip() else [])


def _unused_init_params(src: str) -> tuple[str, bool]:
    sig = re.search(r"__aicore__ inline void Init\(([^)]*)\)", src)
    call = re.search(r"op\.Init\(([^;]*)\);", src)
    if not sig or not call:
        return src, False
    params, args = _split_args(sig.group(1)), _split_args(call.group(1))
    if len(params) != len(args):
        return src, False
    lines = src.split("\n")
    first = src[:sig.start()].count("\n")
    body = "\n".join(lines[first + 1:_block_end(lines, first) + 1])
    body = body[body.index("{"):] if "{" in body else body
    for k, p in enumerate(params):
        name = p.split()[-1]
        if _uses(name, body) == 0:
            new_params = ", ".join(x.strip() for j, x in enumerate(params) if j != k)
            new_args = ", ".join(x.strip() for j, x in enumerate(args) if j != k)
            src = src[:sig.start(1)] + _wrap(new_params, sig.start(1) - src.rfind("\n", 0, sig.start(1)) - 1) + \
                src[sig.end(1):]
            call = re.search(r"op\.Init\(([^;]*)\);", src)
            return src[:call.start(1)] + new_args + src[call.end(1):], True
    return src, False


def _wrap(params: str, indent: int, width: int = 120) -> str:
    """A parameter list broken before ``width`` columns, continuation lines under the first parameter."""
    out, line = [], ""
    for p in (x.strip() for x in params.split(",")):
        cand = f"{line}, {p}" if line else p
        if line and indent + len(cand) > width - 2:
            out.append(line + ",")
            line = p
        else:
            line = cand
    out.append(line)
    return ("\n" + " " * indent).join(out)


def _unused_helpers(src: str) -> tuple[str, bool]:
    for m in _HELPER.finditer(src):
        name = m.group(1)
        if _uses(name, src) > 1:
            continue
        lines = src.split("\n")
        start = src[:m.start()].count("\n")
        end = _block_end(lines, start)
        while start > 0 and lines[start - 1].startswith("//"):
            start -= 1                       # the helper's comment goes with it
        if start > 0 and end + 1 < len(lines) and not lines[start - 1].strip() and not lines[end + 1].strip():
            end += 1                         # and one of the blank lines around it
        return "\n".join(lines[:start] + lines[end + 1:]), True
    return src, False


def prune(src: str) -> str:
    """``src`` without the declarations, members, parameters and helpers nothing reads (to a fixed point)."""
    for _ in range(500):
        for step in (_unused_locals, _empty_methods, _unused_members, _unused_init_params, _unused_helpers):
            src, changed = step(src)
            if changed:
                break
        else:
            return src
    return src
