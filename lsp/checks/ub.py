"""InitBuffer totals over the Unified Buffer capacity, when computable.

``TPipe::InitBuffer(que, num, len)`` reserves ``num`` buffers of ``len`` bytes, each rounded up to 32
bytes; ``InitBuffer(tbuf, len)`` reserves ``len`` bytes (rounded up to 32). A vector core has the Unified Buffer of the
SoC table (``bench_bridge.api.soc_facts``: 192 KB on Atlas A2); what does not fit fails at run time (the
emulator's ``ub-overflow``, kgen_sim/pipe.h follows the same rule).

Per pipe object and function, the unconditional InitBuffer calls whose arguments are constant
expressions (``lsp.checks.consteval``) are added up in order; the call where the running total passes
the capacity is flagged. Calls under ``if``/``switch``/loops or with unknown sizes are left out, so the
total is a lower bound and a finding is certain. Queues and buffers declared on a cube position (A1/B1/C1
in L1, A2 in L0A, B2 in L0B, CO1 in L0C, C2 in the bias table) take their own memories, not UB, and are
not counted (the emulator's per-position arenas follow the same map).
"""
from __future__ import annotations

import re
from functools import lru_cache

from lsp.checks.consteval import evaluate
from lsp.checks.findings import ERROR, Finding

CODE = "ub-capacity"
BLOCK = 32
_PIPE = re.compile(r"\bTPipe\b")
_CUBE_POSITION = re.compile(r"(?:TPosition|QuePosition)\s*::\s*(?:A1|A2|B1|B2|C1|C2|CO1|TSCM)\b")
_CONDITIONAL = ("if_statement", "switch_statement", "for_statement", "while_statement", "do_statement",
                "for_range_loop", "conditional_expression", "lambda_expression")


def _base(obj: str) -> str:
    m = re.match(r"\s*(?:this\s*->\s*)?([A-Za-z_]\w*)\s*$", obj)
    return m.group(1) if m else ""


def _conditional(unit, span: tuple[int, int]) -> bool:
    n = unit.tree.root_node.descendant_for_byte_range(span[0], span[1])
    while n is not None and n.type != "function_definition":
        if n.type in _CONDITIONAL:
            return True
        n = n.parent
    return False


@lru_cache(maxsize=1)
def ub_bytes() -> int:
    """The Unified Buffer of a vector core, in bytes (the SoC table's default SoC: every SoC of the table
    shares the core memories, bench_bridge's CORE_MEMORIES)."""
    # in the server the overload table's warm-up has loaded it by the first diagnostics
    # lazy: bench_bridge.api imports the whole bench bridge, ~0.2-0.3 s (measured); lsp.checks stays light
    from bench_bridge.api import soc_facts

    return soc_facts().ub_bytes


def _round(n: int) -> int:
    return (n + BLOCK - 1) // BLOCK * BLOCK


def check(unit) -> list[Finding]:
    out: list[Finding] = []
    totals: dict[tuple[str, str], int] = {}
    flagged: set[tuple[str, str]] = set()
    for c in unit.calls:
        if c.name != "InitBuffer" or not c.obj or len(c.args) not in (2, 3):
            continue
        pipe = _base(c.obj)
        if not pipe or not _PIPE.search(unit.type_of(pipe, c.function)):
            continue
        if _conditional(unit, c.span):
            continue
        if _CUBE_POSITION.search(unit.type_of(_base(c.args[0]), c.function)):
            continue
        vals = [evaluate(a, unit.constants) for a in c.args[1:]]
        if any(v is None or v <= 0 for v in vals):
            continue
        nbytes = vals[0] * _round(vals[1]) if len(vals) == 2 else _round(vals[0])
        key = (pipe, c.function)
        totals[key] = totals.get(key, 0) + nbytes
        if totals[key] > ub_bytes() and key not in flagged:
            flagged.add(key)
            where = f" in {c.function}" if c.function else ""
            out.append(Finding(span=(c.name_span[0], c.span[1]), code=CODE, severity=ERROR,
                               message=f"the InitBuffer calls of '{pipe}'{where} reserve at least {totals[key]} bytes "
                                       f"of Unified Buffer (buffers rounded up to {BLOCK} B); a vector core has "
                                       f"{ub_bytes()} bytes ({ub_bytes() // 1024} KB)"))
    return out
