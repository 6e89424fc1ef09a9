"""The kernel program the lowering produces (values, inputs, outputs, statements) and the small op-graph
utilities the lowering modules share."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from agent_graph.drafter.analysis import OpGraph, OpNode, Ref
from agent_graph.drafter.operands import InputKind, OutputKind

ValKind = Literal["vec", "bvec", "rs", "gs", "k", "idx", "mask"]
"""What a lowered value is: a row (or flat tile) in a float UB slot, a broadcast row vector, a float per row,
a float for the whole tensor, a constant, an integer per row, a comparison's bit mask."""


@dataclass
class Val:
    kind: ValKind
    expr: str          # vec/bvec: LocalTensor<float> expr; rs/gs/k: float expr; idx: integer expr
    slot: int | None = None
    tile: str = ""     # vec: the whole-tile tensor (for outputs)


@dataclass
class InputSpec:
    name: str
    kind: InputKind
    index: int


@dataclass
class OutputSpec:
    name: str
    kind: OutputKind
    val: Val


@dataclass
class Program:
    mode: Literal["flat", "row"]
    inputs: list[InputSpec] = field(default_factory=list)
    outputs: list[OutputSpec] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    nslots: int = 0
    nmasks: int = 0                             # uint8 bit-mask buffers (comparisons)
    body: list[str] = field(default_factory=list)
    final: list[str] = field(default_factory=list)
    accs: list[tuple[str, str]] = field(default_factory=list)   # (name, sum|max|min)
    round_types: set[str] = field(default_factory=set)
    cols_needed: bool = False
    native16: bool = True                      # every node is one correctly rounded or exact vector op (see lowering)
    row_maps: dict[int, int] = field(default_factory=dict)   # input index -> bits of the output dims it keeps (grow/grs)
    windows: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)   # slice input -> (start, row length, cols) each


def is_last_dim(dim: Any, rank: int) -> bool:
    if isinstance(dim, (list, tuple)):
        if len(dim) != 1:
            return False
        dim = dim[0]
    return isinstance(dim, int) and (dim == -1 or dim == rank - 1)



# ---- graph utilities --------------------------------------------------------------------------

def refs(node: OpNode) -> list[Ref]:
    out: list[Ref] = []

    def walk(a: Any) -> None:
        if isinstance(a, Ref):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            for x in a:
                walk(x)
    walk(node.args)
    walk(list(node.kwargs.values()))
    return out


def uses(g: OpGraph) -> dict[str, int]:
    u: dict[str, int] = {n.name: 0 for n in (*g.inputs, *g.attrs, *g.nodes)}
    for n in g.nodes:
        for name in {r.name for r in refs(n)}:
            u[name] = u.get(name, 0) + 1
    return u


def aliases(v: Any, old: Val) -> bool:
    vs = v if isinstance(v, tuple) else (v,)
    return any(isinstance(x, Val) and x.slot == old.slot for x in vs)


def reduce_dim(n: OpNode) -> Any:
    if "dim" in n.kwargs:
        return n.kwargs["dim"]
    if len(n.args) > 1 and not isinstance(n.args[1], Ref):
        return n.args[1]
    return None


def numel(shape: Any) -> int:
    k = 1
    for d in shape or ():
        k *= d
    return k


def is_number(expr: str) -> bool:
    try:
        num(expr)
        return True
    except ValueError:
        return False


def num(expr: str) -> float:
    return float(expr.rstrip("f"))

