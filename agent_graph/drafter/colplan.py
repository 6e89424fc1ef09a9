"""Recognising the col template's form: one reduction over a dimension (or a run of adjacent dimensions) before
the last, read from the canonical op graph of every shape case.

The forms (``ColForm``), all on x viewed as [outer, reduce, inner]:

* a reduction (sum, mean, amax/amin, prod, argmax/argmin, max/min values) with an elementwise chain on the
  reduced values after it (the epilogue);
* softmax / log_softmax / logsumexp over that dimension (modes 1-3);
* a scan (cumsum / cumprod) over that dimension (mode 5): each reduced row's running value is written;
* a norm over that dimension (mode 4): an elementwise chain on x (the prologue: a square, an absolute value),
  the reduction, a chain on the statistic (mean, + eps, sqrt, clamp, rsqrt), then x multiplied or divided by
  it -- an RMS norm over channels, ``F.normalize(x, dim=1)``, an L1 normalisation.

``inner_reduction`` says which form a task is (or why it is such a reduction in a form the template does not
take); ``col_params`` fills the template's parameters.
"""
from __future__ import annotations

import re
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from agent_graph.drafter import vecops
from agent_graph.drafter.analysis import OpGraph, Ref
from agent_graph.drafter.program import refs

REDUCTIONS = ("sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "softmax", "log_softmax",
              "logsumexp", "cumsum", "cumprod")
_PASS = ("identity", "view", "cast")
_COMBINE = {"sum": "Add", "mean": "Add", "amax": "Max", "max": "Max", "amin": "Min", "min": "Min", "prod": "Mul",
            "argmax": "Max", "argmin": "Min", "softmax": "Max", "log_softmax": "Max", "logsumexp": "Max",
            "cumsum": "Add", "cumprod": "Mul"}
_POW = {2: "square", 1: "identity", 0.5: "sqrt", -0.5: "rsqrt", -1: "reciprocal"}
"""Number exponents that are one unary op."""
_IN_PLACE = {"relu", "abs", "exp", "log", "sqrt", "neg", "square"}
"""Unary ops that are one vector instruction whose destination may be its source."""


@dataclass(frozen=True)
class ColForm:
    """One inner-dimension reduction form (the same for every shape case)."""

    combine: str                  # Add | Max | Min | Mul: how reduced rows combine
    dim: int                      # first reduced dimension: 0, or negative (counted from the end)
    mean: bool                    # divide the sum by the reduced count
    arg: bool                     # argmax/argmin: the index of the extreme is the result
    dim_last: int                 # last reduced dimension, negative
    epilogue: tuple[str, ...] = ()   # statements on the reduced values `acc` (modes 1, 2: on each result `term`)
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


_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "maximum": "Max", "minimum": "Min"}
_WITH_NUMBER = {"add": "Adds", "mul": "Muls", "maximum": "Maxs", "minimum": "Mins"}
EXTRA_ROWS = ("v0", "v1")
"""Rows of the scratch buffer after ``tap``, ``s0``, ``s1`` that hold a chain's intermediate values."""
SCRATCH = ("tap", "s0", "s1") + EXTRA_ROWS


def _op_lines(n: Any, ops: list, dest: str, where: str) -> list[str] | str:
    """``dest`` = n(ops) on float rows of ``len`` elements (an operand is a row name or a number)."""
    rows = [o for o in ops if isinstance(o, str)]
    nums = [o for o in ops if isinstance(o, (int, float)) and not isinstance(o, bool)]
    if n.op in _BINARY and len(ops) == 2 and not n.kwargs:
        a, b = ops
        if isinstance(a, str) and isinstance(b, str):
            return [f"{_BINARY[n.op]}({dest}, {a}, {b}, len);"]
        if isinstance(a, str) and nums:
            v = float(b)
            if n.op == "div" and v == 0.0:
                return f"a division by zero {where}"
            if n.op in ("sub", "div"):
                return [f"{'Adds' if n.op == 'sub' else 'Muls'}({dest}, {a}, {(-v if n.op == 'sub' else 1.0 / v)!r}f, len);"]
            return [f"{_WITH_NUMBER[n.op]}({dest}, {a}, {v!r}f, len);"]
        if isinstance(b, str) and nums:
            v = float(a)
            if n.op in _WITH_NUMBER:
                return [f"{_WITH_NUMBER[n.op]}({dest}, {b}, {v!r}f, len);"]
            if n.op == "sub":     # v - b
                return [f"Muls({dest}, {b}, -1.0f, len);", f"Adds({dest}, {dest}, {v!r}f, len);"]
            return [f"Duplicate(tap, {v!r}f, len);", f"Div({dest}, tap, {b}, len);"]
        return f"{n.op} {where} is not covered yet"
    if n.op == "clamp" and len(rows) == 1 and len(ops) == 1:
        lo, hi = n.kwargs.get("min"), n.kwargs.get("max")
        out, src = [], rows[0]
        if lo is not None:
            out.append(f"Maxs({dest}, {src}, {float(lo)!r}f, len);")
            src = dest
        if hi is not None:
            out.append(f"Mins({dest}, {src}, {float(hi)!r}f, len);")
        return out or [f"Adds({dest}, {src}, 0.0f, len);"]
    op = n.op
    if n.op == "pow" and len(ops) == 2 and isinstance(ops[0], str) and nums:
        op = _POW.get(ops[1])
        if op is None:
            return f"pow with exponent {ops[1]} {where} is not covered yet"
    elif len(ops) != 1 or not rows:
        return f"{n.op} {where} is not covered yet"
    if op in _IN_PLACE and not n.kwargs:
        return vecops.unary(op, dest, rows[0], "len", {}, lambda: "")
    scratch = iter(("s0", "s1"))
    try:
        lines = vecops.unary(op, "tap", rows[0], "len", dict(n.kwargs), lambda: next(scratch))
    except (vecops.Unsupported, StopIteration, KeyError, TypeError, ValueError):
        lines = None
    if not lines:
        return f"{n.op} {where} is not covered yet"
    return lines + [f"Adds({dest}, tap, 0.0f, len);"]


def col_epilogue(rest: list, prev: str, g: OpGraph, var: str = "acc", where: str = "") -> list[str] | str:
    """AscendC statements for elementwise ops computed from the float row ``var`` (``len`` elements, the value
    ``prev``) and numbers, the last op's result left in ``var``; a reason when they are another form (``where``
    the chain is, for it). The ops may read a value more than once (``x * sigmoid(x)``): a value still needed
    later lives in a row of its own (``v0``, ``v1``; scratch rows ``tap``, ``s0``, ``s1`` for multi-instruction
    ops), a value read for the last time gives its row to the result."""
    names = {m.name: m for m in g.nodes}

    def source(a: Any) -> Any:          # through views, copies and casts
        while isinstance(a, Ref) and a.name in names and names[a.name].op in _PASS:
            a = names[a.name].args[0]
        return a
    where = where or ("after a reduction over an inner dimension" if var == "acc" else
                      "before a reduction over an inner dimension")
    args_of = {n.name: [source(a) for a in n.args] for n in rest}
    uses: dict[str, int] = {}
    for n in rest:
        for a in args_of[n.name]:
            if isinstance(a, Ref):
                uses[a.name] = uses.get(a.name, 0) + 1
    held = {prev: var}                  # value -> the row holding it
    free = list(EXTRA_ROWS)
    out: list[str] = []
    for k, n in enumerate(rest):
        args = args_of[n.name]
        if any(isinstance(v, Ref) for v in n.kwargs.values()) or \
                any(isinstance(a, Ref) and a.name not in held for a in args):
            return f"{n.op} {where} combined with other tensors is not covered yet"
        ops = [held[a.name] if isinstance(a, Ref) else a for a in args]
        for a in args:
            if isinstance(a, Ref):
                uses[a.name] -= 1
        dying = list(dict.fromkeys(a.name for a in args if isinstance(a, Ref) and uses[a.name] == 0))
        if k == len(rest) - 1:
            dest = var
        elif dying:
            dest = held[dying[0]]
        elif free:
            dest = free.pop(0)
        else:
            return f"{n.op} {where}: more than three values alive at once is not covered yet"
        lines = _op_lines(n, ops, dest, where)
        if isinstance(lines, str):
            return lines
        out += lines
        for name in dying:
            row = held.pop(name)
            if row != dest:
                free.append(row)
        held[n.name] = dest
    return out


def scratch_count(lines: list[str]) -> int:
    """Rows of the scratch buffer ``lines`` need (up to the last one they use)."""
    used = [k for k, row in enumerate(SCRATCH) if any(re.search(rf"\b{row}\b", ln) for ln in lines)]
    return max(used) + 1 if used else 0


def scratch_rows(lines: list[str], buf: str = "scr_") -> list[str]:
    """Declarations of the scratch rows ``lines`` use (row k of ``buf`` is at k * tile_)."""
    decl = []
    for k, row in enumerate(SCRATCH):
        if any(re.search(rf"\b{row}\b", ln) for ln in lines):
            decl.append(f"LocalTensor<float> {row} = {buf}.Get<float>()[{k} * tile_];" if k else
                        f"LocalTensor<float> {row} = {buf}.Get<float>();")
    return decl


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


def _one_form(forms: list[tuple[ColForm, bool]]) -> ColForm | str | None:
    """The form serving every case (each case's form, and whether it reduces from its first dimension on), or why
    none does. Cases that reduce from their first dimension (a gradient's sum over every batch dimension, however
    many a case has) may differ in how far from the end that is: their form counts from the first (``dim`` 0)."""
    if not forms:
        return None
    if all(f == forms[0][0] for f, _ in forms):
        return forms[0][0]
    if all(first for _, first in forms) and all(dataclasses.replace(f, dim=0) == dataclasses.replace(forms[0][0], dim=0)
                                                for f, _ in forms):
        return dataclasses.replace(forms[0][0], dim=0)
    return "the shape cases reduce different dimensions"


def inner_reduction(graphs: list[OpGraph]) -> ColForm | str | None:
    """The col form of every case's graph; a reason when it is an inner-dimension reduction in a form the col
    template does not take; None when the graph is not one."""
    forms: list[tuple[ColForm, bool]] = []
    for g in graphs:
        nodes = [n for n in g.nodes if n.op not in _PASS]
        rank = len(g.inputs[0].shape or ()) if g.inputs else 0
        split = _split_prologue(nodes, g.inputs[0].name) if g.inputs else None
        if not nodes or split is None:
            return None
        head, nodes = split
        red = nodes[0]
        src = {m.name: m for m in g.nodes + list(g.inputs)}.get(getattr(red.args[0], "name", None)) if red.args else None
        if src is not None and tuple(src.shape or ()) != tuple(g.inputs[0].shape or ()):
            # the input reshaped first ([16, 1, 1, 32] squeezed to [16, 32]): the host's dims would be the input's
            return None if _dims(red, len(src.shape or ())) is None else \
                "a reduction over an inner dimension of a reshaped input is not covered yet"
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
        if red.op in ("cumsum", "cumprod"):
            if head or rest or any(red.kwargs.get(k) for k in ("reverse", "exclusive")):
                return f"{red.op} over an inner dimension with other ops, reversed or exclusive, is not covered yet"
            if red.op == "cumprod" and red.dtype in ("float16", "bfloat16"):
                return "cumprod of a 16-bit tensor over an inner dimension is not covered yet"
            cur = ColForm(combine=_COMBINE[red.op], dim=dims[0] - rank, mean=False, arg=False, dim_last=dims[1] - rank,
                          mode=5)
            forms.append((cur, dims[0] == 0))
            continue
        if red.op in ("max", "min"):
            if not rest or rest[0].op != "getitem":
                return f"{red.op} over an inner dimension returning values and indices is not covered yet"
            arg = rest[0].args[1] == 1
            prev = rest[0].name
            rest = rest[1:]
        else:
            arg = red.op in ("argmax", "argmin")
        per_element = red.op in ("softmax", "log_softmax")     # the ops after it run on each written element
        epilogue = col_epilogue(rest, prev, g, var="term" if per_element else "acc",
                                where=f"after a {red.op} over an inner dimension" if per_element else "") if rest else []
        if isinstance(epilogue, str):
            return epilogue
        prologue = col_epilogue(head, g.inputs[0].name, g, var="row") if head else []
        if isinstance(prologue, str):
            return prologue
        if (epilogue or scale) and (arg or red.dtype in ("float16", "bfloat16")):
            return "a reduction over an inner dimension followed by other ops is covered for float32 values only"
        mode = 4 if scale else {"softmax": 1, "log_softmax": 2, "logsumexp": 3}.get(red.op, 0)
        if red.op == "prod" and red.dtype in ("float16", "bfloat16"):
            # PyTorch multiplies 16-bit values one after another in their own type; the col template combines in float
            return "prod of a 16-bit tensor over an inner dimension is not covered yet"
        cur = ColForm(combine=_COMBINE[red.op], dim=dims[0] - rank, mean=red.op == "mean", arg=arg,
                      dim_last=dims[1] - rank, epilogue=tuple(epilogue), mode=mode, prologue=tuple(prologue), scale=scale)
        forms.append((cur, dims[0] == 0))
    return _one_form(forms)
