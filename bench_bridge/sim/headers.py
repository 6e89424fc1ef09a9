"""The emulator's headers as a kernel build sees them, for tools that read declarations (the LSP's
overload table): the preprocessed text of ``kernel_operator.h`` (macros expanded, system headers
dropped) and the function-like macros the headers define."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bench_bridge.sim import compiler


def header_files() -> list[Path]:
    """Every header of the emulator's include tree."""
    return sorted(compiler.INCLUDE_DIR.rglob("*.h"))


def preprocessed_source(cxx: str | None = None) -> str:
    """The emulator's own lines of ``kernel_operator.h`` after the preprocessor, with the ``-std`` and
    ``-D`` flags of a kernel build. Raises ``OSError``/``subprocess.SubprocessError`` when the
    compiler cannot run."""
    inc = str(compiler.INCLUDE_DIR.resolve())
    flags = [f for f in compiler.BASE_FLAGS if f.startswith(("-std", "-D"))]
    proc = subprocess.run([cxx or compiler.find_cxx(), *flags, "-E", "-I", inc, "-x", "c++", "-"],
                          input="#include <kernel_operator.h>\n#include <kgen_sim/core_type.h>\n", capture_output=True, text=True, timeout=60)
    keep, ours = [], False
    for line in proc.stdout.splitlines():
        if line.startswith("# "):
            m = re.match(r'# \d+ "([^"]*)"', line)
            if m:
                ours = m.group(1).startswith(inc)
            continue
        if ours:
            keep.append(line)
    return "\n".join(keep)


def function_macros() -> set[str]:
    """Function-like macros the emulator headers define (REGIST_MATMUL_OBJ, GET_TILING_DATA, ...)."""
    out: set[str] = set()
    for p in header_files():
        try:
            out |= set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(", p.read_text(errors="replace"), re.M))
        except OSError:
            continue
    return out
