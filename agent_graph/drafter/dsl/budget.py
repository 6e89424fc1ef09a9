"""UB bytes of a DSL kernel, from the same Buffer declarations the lowering turns into InitBuffer calls.

Every buffer's bytes are ``per_elem * tile elements + fixed`` at the widest dtype of its element type; the
host TilingFunc sizes the tile from these terms (each term a commented line of the host code), and
:func:`check` refuses a program whose smallest tile does not fit the SoC's UB (the SoC table,
``bench_bridge.api.soc_facts``)."""
from __future__ import annotations

from dataclasses import dataclass

from agent_graph.drafter.dsl.ir import Buffer, DslError, Reduce, ReduceOp, Schedule
from agent_graph.drafter.dsl.lang import Kernel
from bench_bridge.api import DEFAULT_SOC, soc_facts

BLOCK = 32                 # bytes of one UB block: every buffer is a whole number of blocks
MIN_TILE = 16              # elements: the smallest FLAT tile (one block of a 2-byte dtype)
REDUCE_WORK_FIXED = 64     # bytes of reduction work buffer beyond its per-element share
REDUCE_WORK_PER_ELEM = 1   # bytes per element: ReduceMax/Min keep 2 floats per 64-element repeat (2*4/64 B)
REDUCE_WORK_WHY = "the reductions' work area: 2 values per 64-element repeat, rounded up to 1 B per element, plus 64 B"


@dataclass(frozen=True)
class Term:
    """One buffer's UB bytes: ``per_elem`` bytes per tile element plus ``fixed``; ``why`` is the host comment."""
    name: str
    per_elem: int
    fixed: int
    why: str


def buffer_term(b: Buffer) -> Term:
    size = b.worst_size
    slots = f"{b.depth} slots x " if b.depth > 1 else ""
    if b.elems == "one":
        return Term(b.name, 0, b.depth * BLOCK, f"{b.name}: {slots}one {BLOCK}-byte block (one value per row)")
    widest = " (the widest of its dtypes)" if len(set(b.etype)) > 1 else ""
    return Term(b.name, b.depth * size, 0, f"{b.name}: {slots}{size} B{widest} per element")


def reduce_terms(k: Kernel) -> list[Term]:
    """The reduction buffers the lowering adds: a one-block result and, for max/min, a work buffer."""
    reds = [s for s in k.body if isinstance(s, Reduce)]
    if not reds:
        return []
    out = []
    if any(through_scalar_block(s) for s in reds):
        out.append(Term("reduceOut", 0, BLOCK, f"reduceOut: one {BLOCK}-byte block for a reduction result"))
    out.append(Term("reduceWork", REDUCE_WORK_PER_ELEM, REDUCE_WORK_FIXED,
                    f"reduceWork: {REDUCE_WORK_WHY}"))
    return out


def through_scalar_block(s: Reduce) -> bool:
    """The reduction writes the one-block ``reduceOut`` (a scalar result, or a per-row output of another type)."""
    return s.out is not None or s.into.etype != s.src.etype


def terms(k: Kernel) -> list[Term]:
    return [buffer_term(b) for b in k.buffers] + reduce_terms(k)


def per_elem(k: Kernel) -> int:
    return sum(t.per_elem for t in terms(k))


def fixed(k: Kernel) -> int:
    return sum(t.fixed for t in terms(k))


def ub_bytes(soc: str | None = None) -> int:
    return int(soc_facts(soc or DEFAULT_SOC).ub_bytes)


def check(k: Kernel, soc: str | None = None, row_len: int | None = None) -> None:
    """Raise DslError when the smallest tile (FLAT) or a row of ``row_len`` elements (ROWS) overflows UB."""
    cap = ub_bytes(soc)
    elems = MIN_TILE if k.schedule is Schedule.FLAT else (row_len or MIN_TILE)
    elems = -(-elems // MIN_TILE) * MIN_TILE
    need = per_elem(k) * elems + fixed(k)
    if need > cap:
        what = "the smallest tile" if k.schedule is Schedule.FLAT else f"a row of {row_len or elems} elements"
        raise DslError(f"UB overflow: {what} needs {need} bytes of the {cap} in UB "
                       f"({', '.join(t.name for t in terms(k))})")


def reduce_ops(k: Kernel) -> set[ReduceOp]:
    return {s.op for s in k.body if isinstance(s, Reduce)}
