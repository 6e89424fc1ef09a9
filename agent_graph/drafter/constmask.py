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
