"""Recognising the col template's form: one reduction over a dimension (or a run of adjacent dimensions) before
the last, read from the canonical op graph of every shape case.

The forms (``ColForm``), all on x viewed as [outer, reduce, inner]:

* a reduction (sum, mean, amax/amin, prod, argmax/argmin, max/min values) with an elementwise chain on the
  reduced values after it (the epilogue);
* softmax / log_softmax / logsumexp over that dimension (modes 1-3);
* a norm over that dimension (mode 4): an elementwise chain on x (the prologue: a square, an absolute value),
  the reduction, a chain on the statistic (mean, + eps, sqrt, clamp, rsqrt), then x multiplied or divided by
  it -- an RMS norm over channels, ``F.normalize(x, dim=1)``, an L1 normalisation.

``inner_reduction`` says which form a task is (or why it is such a reduction in a form the template does not
take); ``col_params`` fills the template's parameters.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent_graph.drafter import vecops
from agent_graph.drafter.analysis import OpGraph, Ref
from agent_graph.drafter.program import refs

REDUCTIONS = ("sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "softmax", "log_softmax",
              "logsumexp")
_PASS = ("identity", "view", "cast")
_COMBINE = {"sum": "Add", "mean": "Add", "amax": "Max", "max": "Max", "amin": "Min", "min": "Min", "prod": "Mul",
            "argmax": "Max", "argmin": "Min", "softmax": "Max", "log_softmax": "Max", "logsumexp": "Max"}
_POW = {2: "square", 1: "identity", 0.5: "sqrt", -0.5: "rsqrt", -1: "reciprocal"}
"""Number exponents that are one unary op."""
_IN_PLACE = {"relu", "abs", "exp", "log", "sqrt", "neg", "square"}
"""Unary ops that are one vector instruction whose destination may be its source."""


@dataclass(frozen=True)
class ColForm:
    """One inner-dimension reduction form (the same for every shape case)."""

    combine: str                  # Add | Max | Min | Mul: how reduced rows combine
    dim: int                      # first reduced dimension, negative (counted from the end)
    mean: bool                    # divide the sum by the reduced count
    arg: bool                     # argmax/argmin: the index of the extreme is the result
    dim_last: int                 # last reduced dimension, negative
    epilogue: tuple[str, ...] = ()   # statements on the reduced values `acc`
    mode: int = 0                 # 0 reduction, 1 softmax, 2 log_softmax, 3 logsumexp, 4 norm (x scaled by acc)
    prologue: tuple[str, ...] = field(default=())   # statements on each reduced row `row` before it combines
    scale: str = ""               # mode 4: Mul | Div, x by the statistic


def _unary(n: Any, prev: str) -> str | None:
    """The unary op ``n`` applies to ``prev`` (a number exponent or ``prev * prev`` read as one), else None."""
    args = list(n.args)
    if not args or not isinstance(args[0], Ref) or args[0].name != prev:
        return None
    if n.op == "pow" and len(args) == 2 and isinstance(args[1], (int, float)) and not isinstance(args[1], bool):
        return _POW.get(args[1])
    if n.op == "mul" and len(args) == 2 and isinstance(args[1], Ref) and args[1].name == prev:
        return "square"
    if len(args) == 1 and not any(isinstance(v, Ref) for v in n.kwargs.values()):
        return n.op
    return None


def col_epilogue(rest: list, prev: str, g: OpGraph, var: str = "acc", where: str = "") -> list[str] | str:
    """AscendC statements on the float vector ``var`` (``len`` elements) for a chain of elementwise ops, each
    reading the one before and numbers (scratch rows: ``tap``, ``s0``, ``s1``); a reason when the chain is
    another form (``where`` the chain is, for it)."""
    out: list[str] = []
    names = {m.name: m for m in g.nodes}

    def source(a: Any) -> Any:          # through views, copies and casts
        while isinstance(a, Ref) and a.name in names and names[a.name].op in _PASS:
            a = names[a.name].args[0]
        return a
    where = where or ("after a reduction over an inner dimension" if var == "acc" else
                      "before a reduction over an inner dimension")
    for n in rest:
        args = list(n.args)
        if args:
            args[0] = source(args[0])
        if args and isinstance(args[0], Ref) and args[0].name == prev and len(args) == 2 and \
                isinstance(args[1], Ref) and source(args[1]).name == prev and n.op == "mul":
            out.append(f"Mul({var}, {var}, {var}, len);")
            prev = n.name
            continue
        if not args or not isinstance(args[0], Ref) or args[0].name != prev or \
                any(isinstance(a, Ref) for a in args[1:]) or any(isinstance(v, Ref) for v in n.kwargs.values()):
            return f"{n.op} {where} combined with other tensors or computed from another value is not covered yet"
        if n.op in ("mul", "add", "sub", "div") and len(args) == 2 and isinstance(args[1], (int, float)) and not n.kwargs:
            v = float(args[1])
            if n.op == "div" and v == 0.0:
                return f"a division by zero {where}"
            v = {"mul": v, "add": v, "sub": -v, "div": 1.0 / v}[n.op]
            out.append(f"{'Muls' if n.op in ('mul', 'div') else 'Adds'}({var}, {var}, {v!r}f, len);")
        elif n.op == "clamp":
            if n.kwargs.get("min") is not None:
                out.append(f"Maxs({var}, {var}, {float(n.kwargs['min'])!r}f, len);")
            if n.kwargs.get("max") is not None:
                out.append(f"Mins({var}, {var}, {float(n.kwargs['max'])!r}f, len);")
        elif (_unary(n, prev) if n.op == "pow" else n.op) in _IN_PLACE:
            out += vecops.unary(_unary(n, prev) or n.op, var, var, "len", {}, lambda: "")
        else:
            op = _unary(n, prev) if n.op == "pow" else n.op
            scratch = iter(("s0", "s1"))
            try:
                lines = vecops.unary(op, "tap", var, "len", dict(n.kwargs), lambda: next(scratch)) if op else None
            except (vecops.Unsupported, StopIteration, KeyError, TypeError, ValueError):
                lines = None
            if not lines:
                return f"{n.op} {where} is not covered yet"
            out += lines + [f"Adds({var}, tap, 0.0f, len);"]
        prev = n.name
    return out


def _shown(name: str) -> str:
    """An input's name as the reference spells it (torch.export names a module's parameters p_*, buffers b_*)."""
    return f"self.{name[2:]}" if name.startswith(("p_", "b_")) else name


def _dims(red: Any, rank: int) -> tuple[int, int] | None:
    """(first, last) reduced dimension, non-negative, when they are adjacent and before the last; else None."""
    dim = red.kwargs.get("dim", red.args[1] if len(red.args) > 1 else None)
    if isinstance(dim, (list, tuple)) and len(dim) == 1:
        dim = dim[0]
    if isinstance(dim, (list, tuple)) and rank >= 2 and all(isinstance(d, int) for d in dim):
        # several adjacent dimensions before the last one reduce as one (their product is the reduced run)
        ds = sorted({d % rank for d in dim})
        if ds != list(range(ds[0], ds[-1] + 1)) or ds[-1] == rank - 1:
            return None
        return ds[0], ds[-1]
    if not isinstance(dim, int) or isinstance(dim, bool) or rank < 2 or dim % rank == rank - 1:
        return None
    return dim % rank, dim % rank


def _split_prologue(nodes: list, x: str) -> tuple[list, list] | None:
    """(prologue nodes, the rest from the reduction on) when ``nodes`` is a chain of one-input elementwise ops
    on ``x`` followed by a reduction; None otherwise."""
    prev = x
    for i, n in enumerate(nodes):
        if n.op in REDUCTIONS:
            return nodes[:i], nodes[i:]
        if _unary(n, prev) is None and not (n.op in ("mul", "add", "sub", "div", "clamp") and n.args and
                                           isinstance(n.args[0], Ref) and n.args[0].name == prev and
                                           not any(isinstance(a, Ref) for a in n.args[1:])):
            return None
        prev = n.name
    return None


def _scale_of(last: Any, x: str, stat: str, names: dict) -> str:
    """Mul | Div when ``last`` is x times (or divided by) the statistic ``stat`` (through views), else ''."""
    def source(a: Any) -> str | None:
        while isinstance(a, Ref) and a.name in names and names[a.name].op in _PASS:
            a = names[a.name].args[0]
        return a.name if isinstance(a, Ref) else None
    if last.op not in ("mul", "div") or len(last.args) != 2 or last.kwargs:
        return ""
    a, b = (source(v) for v in last.args)
    if (a, b) == (x, stat) or (last.op == "mul" and (a, b) == (stat, x)):
        return "Mul" if last.op == "mul" else "Div"
    return ""


def inner_reduction(graphs: list[OpGraph]) -> ColForm | str | None:
    """The col form of every case's graph; a reason when it is an inner-dimension reduction in a form the col
    template does not take; None when the graph is not one."""
    found = None
    for g in graphs:
        nodes = [n for n in g.nodes if n.op not in _PASS]
        rank = len(g.inputs[0].shape or ()) if g.inputs else 0
        split = _split_prologue(nodes, g.inputs[0].name) if g.inputs else None
        if not nodes or split is None:
            return None
        head, nodes = split
        red = nodes[0]
        dims = _dims(red, rank)
        if dims is None:
            return None
        if len(g.inputs) != 1:
            others = ", ".join(f"{_shown(i.name)} of shape {list(i.shape or ())}" for i in g.inputs[1:])
            return f"a reduction over an inner dimension combined with other tensors ({others}) is not covered yet"
        names = {m.name: m for m in g.nodes}
        used = {r.name for n in g.nodes for r in refs(n)}
        scale = ""
        if len(nodes) > 1 and red.op in ("sum", "mean", "amax", "amin"):
            scale = _scale_of(nodes[-1], g.inputs[0].name, nodes[-2].name if len(nodes) > 2 else red.name, names)
        if head and not scale:
            return None        # an elementwise chain then a reduction: a plain row or flat program, or another planner's
        if len(g.outputs) != 1 or any(a.name in used for a in g.attrs):
            return "a reduction over an inner dimension with more than one input or output"
        rest = nodes[1:-1] if scale else nodes[1:]
        prev = red.name
        if red.op in ("max", "min"):
            if not rest or rest[0].op != "getitem":
                return f"{red.op} over an inner dimension returning values and indices is not covered yet"
            arg = rest[0].args[1] == 1
            prev = rest[0].name
            rest = rest[1:]
        else:
            arg = red.op in ("argmax", "argmin")
        epilogue = col_epilogue(rest, prev, g) if rest else []
        if isinstance(epilogue, str):
            return epilogue
        prologue = col_epilogue(head, g.inputs[0].name, g, var="row") if head else []
        if isinstance(prologue, str):
            return prologue
        if (epilogue or scale) and (arg or red.dtype in ("float16", "bfloat16")):
            return "a reduction over an inner dimension followed by other ops is covered for float32 values only"
        mode = 4 if scale else {"softmax": 1, "log_softmax": 2, "logsumexp": 3}.get(red.op, 0)
        if epilogue and mode in (1, 2):
            return f"{red.op} over an inner dimension followed by other ops is not covered yet"
        if red.op == "prod" and red.dtype in ("float16", "bfloat16"):
            # PyTorch multiplies 16-bit values one after another in their own type; the col template combines in float
            return "prod of a 16-bit tensor over an inner dimension is not covered yet"
        cur = ColForm(combine=_COMBINE[red.op], dim=dims[0] - rank, mean=red.op == "mean", arg=arg,
                      dim_last=dims[1] - rank, epilogue=tuple(epilogue), mode=mode, prologue=tuple(prologue), scale=scale)
        if found is not None and found != cur:
            return "the shape cases reduce different dimensions"
        found = cur
    return found
