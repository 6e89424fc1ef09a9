"""Constant masks read by value: an export's nodes evaluated on the case's inputs, and triangular keep
patterns (``torch.triu``/``tril``, a causal buffer, ``arange`` compares spelled by hand) recognised from
the values they take rather than from how they were written.

``evaluate`` runs the exported program once and keeps every node's value; ``lower_offset`` names the
offset ``k`` of a keep pattern ``j <= i + k`` over the last two dimensions; ``triangle`` reads either
direction (``upper``: ``j >= i + k``, as ``torch.triu(x, k)`` keeps).
"""
from __future__ import annotations

from typing import Any, Literal

import torch
import torch.fx as fx

from agent_graph.drafter.analysis import _Recorder as Recorder


def _name(n: fx.Node) -> str:
    packet = getattr(n.target, "_overloadpacket", None)
    return packet.__name__ if packet is not None else getattr(n.target, "__name__", str(n.target))

Side = Literal["lower", "upper"]


def evaluate(ep: torch.export.ExportedProgram, inputs: list[Any]) -> dict[str, Any]:
    """Every node's value (by fx name) when the exported program runs on ``inputs``."""
    args = []
    user = iter(inputs)
    for spec in ep.graph_signature.input_specs:
        if spec.kind.name == "USER_INPUT":
            args.append(next(user))
        elif spec.target in ep.state_dict:
            args.append(ep.state_dict[spec.target])
        else:
            args.append(ep.constants[spec.target])
    it = Recorder(ep.graph_module)
    with torch.no_grad():
        it.run(*args)
    return it.values


def lower_offset(keep: torch.Tensor) -> int | None | str:
    """The offset of a lower-triangular keep pattern [.., R, C] (j <= i + offset) the same in every matrix;
    None when every position is kept; a message when it is no such triangle."""
    rows, cols = keep.shape[-2:]
    flat = keep.reshape(-1, rows, cols)
    if bool(flat.all()):
        return None
    counts = flat[0].sum(-1)
    off = None
    for i in range(rows):
        c = int(counts[i])
        if 0 < c < cols:
            off = c - 1 - i
            break
    if off is None:
        return "a mask that keeps whole rows or none of them"
    want = torch.ones(rows, cols, dtype=torch.bool).tril(off)
    if not all(torch.equal(m, want) for m in flat):
        return f"a mask of shape {list(keep.shape)} that is not a lower triangle"
    return off


def triangle(keep: torch.Tensor) -> tuple[Side, int] | str:
    """(side, k) of a keep pattern over the last two dimensions: ``lower`` keeps j <= i + k (``tril(x, k)``),
    ``upper`` keeps j >= i + k (``triu(x, k)``); a message when it is neither (or keeps everything)."""
    low = lower_offset(keep)
    if isinstance(low, int):
        return "lower", low
    up = lower_offset(~keep)          # triu(k) keeps the complement of tril(k - 1)
    if isinstance(up, int):
        return "upper", up + 1
    return low if isinstance(low, str) else "a mask that keeps every position"


def ancestors(n: fx.Node) -> set[fx.Node]:
    """Every node ``n`` is computed from, ``n`` included."""
    seen, todo = set(), [n]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo += [a for a in m.all_input_nodes]
    return seen


def user_free(n: fx.Node, ep: torch.export.ExportedProgram) -> bool:
    """Whether ``n`` is computed without any user input (from constants, buffers, ``arange``...)."""
    user = {s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT" and hasattr(s.arg, "name")}
    return not any(m.op == "placeholder" and m.name in user for m in ancestors(n))


def masked_triangle(ep: torch.export.ExportedProgram, inputs: list[Any], out_shape: tuple
                    ) -> tuple[fx.Node, fx.Node, set[str], tuple[Side, int]] | None:
    """A result masked to a triangle of each matrix (``torch.triu(a @ b)``, ``torch.where(mask, y, 0)`` or
    ``y * mask`` with a mask built from ``arange``/``ones`` alone): (the masking node, the value it masks, the
    nodes that build the mask, (side, k)); None when the output is no such mask. Read by value: whatever builds
    the mask, it is evaluated on the case and must keep one triangle the same in every matrix."""
    found = masked_keep(ep, inputs, out_shape)
    if found is None:
        return None
    side = triangle(found[3])
    return None if isinstance(side, str) else (*found[:3], side)


def masked_keep(ep: torch.export.ExportedProgram, inputs: list[Any], out_shape: tuple
                ) -> tuple[fx.Node, fx.Node, set[str], torch.Tensor] | None:
    """A result that is a value with a constant mask applied (``where(mask, y, 0)``, ``y * mask``, the mask built
    without the user's inputs): (the masking node, the value, the nodes that build the mask, the keep pattern as
    a bool tensor of the result's shape, evaluated on the case); None when the output is no such mask."""
    out = next(n for n in ep.graph.nodes if n.op == "output").args[0]
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    n = outs[0] if len(outs) == 1 else None
    if not isinstance(n, fx.Node) or n.op != "call_function" or _name(n) not in ("where", "mul") or \
            len(out_shape) < 2 or tuple(n.meta["val"].shape) != tuple(out_shape):
        return None
    args = list(n.args)
    free = [isinstance(a, fx.Node) and (user_free(a, ep) or _name(a) in ("full_like", "zeros_like")) for a in args]
    where = _name(n) == "where"
    if (where and (not free[0] or sum(free) != 2)) or \
            (not where and (sum(free) != 1 or not all(isinstance(a, fx.Node) for a in args))):
        return None
    env = evaluate(ep, inputs)       # the mask and the fill, by value
    def value(a: Any) -> torch.Tensor:
        return env[a.name] if isinstance(a, fx.Node) else torch.tensor(a)
    if where:
        x = args[2] if free[1] else args[1]
        if not bool((value(args[1] if free[1] else args[2]) == 0).all()):
            return None
        keep = value(args[0]).to(torch.bool)
        keep = ~keep if free[1] else keep
    else:
        m = value(args[free.index(True)])
        if not bool(((m == 0) | (m == 1)).all()):
            return None
        x, keep = args[free.index(False)], m != 0
    if not isinstance(x, fx.Node) or tuple(x.meta["val"].shape) != tuple(out_shape):
        return None
    try:
        keep = torch.broadcast_to(keep, out_shape)
    except RuntimeError:
        return None
    carried = ancestors(x)
    built = {m.name for a in args if isinstance(a, fx.Node) and a is not x for m in ancestors(a)
             if m.op == "call_function" and m not in carried}
    return n, x, built | {n.name}, keep
