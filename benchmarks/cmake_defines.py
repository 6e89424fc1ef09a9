"""The compile definitions an official example's CMakeLists.txt gives its `demo` target.

Only what those files use: `set(VAR value [CACHE ...])`, `option(VAR "help" ON|OFF)`, `if/elseif/else/endif` on `VAR STREQUAL "x"`
or `VAR MATCHES "re"` (with NOT/AND/OR), `string(REGEX MATCH|REPLACE ...)` and `string(TOUPPER|TOLOWER ...)`, `add_definitions(-DNAME=value)` and `target_compile_definitions(demo PRIVATE NAME[=value] ...)` with `${VAR}`
substituted. Anything else is ignored; an unknown condition counts as false.
"""
from __future__ import annotations

import re
from pathlib import Path

_CMD = re.compile(r"(\w+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", re.S)


def _subst(text: str, env: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), text)


def _words(args: str, env: dict[str, str]) -> list[str]:
    words = re.findall(r'[^\s"]*"[^"]*"[^\s"]*|\S+', _subst(args, env))
    # a whole quoted word is its content; NAME="value" keeps its quotes (a string-literal macro)
    return [w[1:-1] if len(w) >= 2 and w[0] == w[-1] == '"' else w for w in words]


def _cond(args: str, env: dict[str, str]) -> bool:
    words = _words(args, env)
    # OR of ANDs of [NOT] (A STREQUAL B | A EQUAL B | VAR)
    def atom(ws: list[str]) -> bool:
        neg = False
        while ws and ws[0] == "NOT":
            neg, ws = not neg, ws[1:]
        if len(ws) == 3 and ws[1] in ("STREQUAL", "EQUAL"):
            val = env.get(ws[0], ws[0]) == env.get(ws[2], ws[2])
        elif len(ws) == 3 and ws[1] == "MATCHES":
            try:
                val = re.search(ws[2], env.get(ws[0], ws[0])) is not None
            except re.error:
                val = False
        elif len(ws) == 1 and ws[0] in env:   # if(VAR): a defined variable whose value is not a false constant
            val = env[ws[0]].upper() not in ("", "0", "OFF", "FALSE", "NO", "N", "IGNORE", "NOTFOUND") \
                and not env[ws[0]].upper().endswith("-NOTFOUND")
        elif len(ws) == 1:   # if(<constant>), or an undefined name: false unless a true constant
            w = ws[0].upper()
            val = w in ("1", "ON", "YES", "TRUE", "Y") or (re.fullmatch(r"-?\d+(\.\d+)?", w) is not None and float(w) != 0)
        else:
            val = False
        return val != neg

    ors, cur = [], []
    for w in words + ["OR"]:
        if w == "OR":
            ors.append(all(atom(a) for a in _split(cur, "AND")))
            cur = []
        else:
            cur.append(w)
    return any(ors)


def _split(ws: list[str], sep: str) -> list[list[str]]:
    out, cur = [], []
    for w in ws:
        if w == sep:
            out.append(cur)
            cur = []
        else:
            cur.append(w)
    out.append(cur)
    return out


def _string(ws: list[str], env: dict[str, str]) -> None:
    """string(REGEX MATCH <re> <out> <input>...), string(REGEX REPLACE <re> <repl> <out> <input>...),
    string(TOUPPER|TOLOWER <in> <out>): the forms the examples use to derive a define (e.g. 2201 from dav-2201).
    The expressions these files use mean the same in CMake and Python."""
    if len(ws) >= 4 and ws[0] == "REGEX" and ws[1] == "MATCH":
        m = re.search(ws[2], "".join(ws[4:]))
        env[ws[3]] = m.group(0) if m else ""
    elif len(ws) >= 5 and ws[0] == "REGEX" and ws[1] == "REPLACE":
        repl = re.sub(r"\\{1,2}(\d)", r"\\g<\1>", ws[3])  # \1 (written \\1 in a quoted CMake string)
        env[ws[4]] = re.sub(ws[2], repl, "".join(ws[5:]))
    elif len(ws) == 3 and ws[0] in ("TOUPPER", "TOLOWER"):
        env[ws[2]] = ws[1].upper() if ws[0] == "TOUPPER" else ws[1].lower()


def compile_definitions(cmakelists: Path, overrides: dict[str, str]) -> list[str]:
    """`NAME=value` / `NAME` strings for the demo target, with ``overrides`` (e.g. the scenario) applied."""
    text = re.sub(r"#[^\n]*", "", cmakelists.read_text(errors="replace"))
    env: dict[str, str] = {}
    defs: list[str] = []
    stack: list[list[bool]] = []  # per if: [this branch active, some branch taken]

    def active() -> bool:
        return all(s[0] for s in stack)

    for m in _CMD.finditer(text):
        cmd, args = m.group(1).lower(), m.group(2)
        if cmd == "if":
            ok = active() and _cond(args, env)
            stack.append([ok, ok])
        elif cmd == "elseif" and stack:
            ok = not stack[-1][1] and all(s[0] for s in stack[:-1]) and _cond(args, env)
            stack[-1] = [ok, stack[-1][1] or ok]
        elif cmd == "else" and stack:
            ok = not stack[-1][1] and all(s[0] for s in stack[:-1])
            stack[-1] = [ok, True]
        elif cmd == "endif" and stack:
            stack.pop()
        elif not active():
            continue
        elif cmd == "set":
            ws = _words(args, env)
            if ws:
                name = ws[0]
                value = ws[1] if len(ws) > 1 and ws[1] != "CACHE" else ""
                env[name] = overrides.get(name, value)
        elif cmd == "option":   # option(NAME "help" [ON|OFF]): OFF unless given
            ws = _words(args, env)
            if ws:
                env[ws[0]] = overrides.get(ws[0], ws[2] if len(ws) > 2 else "OFF")
        elif cmd == "string":
            _string(_words(args, env), env)
        elif cmd == "add_definitions":
            defs += [w[2:] for w in _words(args, env) if w.startswith("-D")]
        elif cmd == "target_compile_definitions":
            ws = _words(args, env)
            for w in ws[1:]:
                if w in ("PRIVATE", "PUBLIC", "INTERFACE") or w.startswith("$<"):
                    continue
                defs.append(w)
        for k, v in overrides.items():
            env.setdefault(k, v)
    return list(dict.fromkeys(defs))
