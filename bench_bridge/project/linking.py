"""Building a project's op_host sources into one emulator program.

CANN builds a custom operator's op_host files into separate shared libraries (the project's
CMakeLists puts the OpDef file into ``opsproto`` / ``op_host_aclnn`` and the TilingFunc file into
``optiling``). A non-inline function defined in a header that both files include therefore exists
once per library and never clashes. The emulator links all of them into one program, so such a
definition would be a "multiple definition" link error that the CANN build never sees. When (and
only when) the link fails for that reason, the build is repeated with the linker told to keep the
first definition (the copies come from the same header text), and a warning names the situation.
"""
from __future__ import annotations

import re
from pathlib import Path

from bench_bridge.sim import BuildResult, Diagnostic, build

ALLOW_MULTIPLE = ["-z", "muldefs"]  # ld --allow-multiple-definition; -z (unlike -Wl,) is no linker input, so PCH and -c steps ignore it
_MULTI = re.compile(r"multiple definition of [`'‘]([^'’`]+)['’]")


def duplicate_symbols(res: BuildResult) -> list[str]:
    """Symbols the link of ``res`` found defined more than once (empty when it failed otherwise)."""
    if res.ok:
        return []
    return list(dict.fromkeys(_MULTI.findall(res.log or "")))


def build_host_program(sources: list[Path], include_dirs: list[Path], timeout: float) -> BuildResult:
    res = build(sources, include_dirs=include_dirs, timeout=timeout)
    dups = duplicate_symbols(res)
    if not dups:
        return res
    again = build(sources, include_dirs=include_dirs, extra_flags=ALLOW_MULTIPLE, timeout=timeout)
    if again.ok:
        shown = ", ".join(dups[:3]) + (f" and {len(dups) - 3} more" if len(dups) > 3 else "")
        again.diagnostics.append(Diagnostic(
            "warning", f"{shown} is defined in more than one op_host translation unit; CANN builds those files into "
                       "separate libraries (opsproto / optiling), so kgen linked the program keeping one copy",
            str(sources[0]), 0, 0, "host-multiple-definition"))
    return again
