"""Patterns with a template of their own, tried before the elementwise/row/col lowering: pooling (``pool.py``),
row and element gathers (``index.py``), pure data movement (``movement.py``), row updates (``putrows.py``), scatters (``scatter.py``), nearest resize (``resize.py``) and triangles of a
input (``triangle.py``).

An eager run of the first case under a dispatch mode names the ATen ops the reference calls (no export); only a
reference that calls a pooling or indexing op is read through ``torch.export`` by those modules.
"""
from __future__ import annotations

import copy
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from agent_graph.drafter import index, movement, pool, putrows, resize, scatter, sort, triangle
from agent_graph.drafter.ownplan import OwnPlan

INDEXING = {"index_select", "embedding", "index", "gather"}
# the eager spellings of a data movement (``movement.py`` takes a reference that does nothing else)
MOVING = {"permute", "transpose", "t", "cat", "stack", "constant_pad_nd", "pad", "repeat", "split", "split_with_sizes",
          "unbind", "narrow", "slice", "flip", "roll", "fliplr", "flipud", "repeat_interleave", "expand", "movedim", "swapaxes",
          "tile", "hstack", "vstack", "concat", "concatenate", "chunk", "tensor_split"}


class _OpsSeen(TorchDispatchMode):
    """Names of the ATen ops an eager run calls."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.add(func.overloadpacket.__name__)
        return func(*args, **(kwargs or {}))


def ops_called(mod: Any, init: list, ins: list) -> set[str]:
    seen = _OpsSeen()
    try:
        with torch.no_grad(), seen:
            mod.Model(*copy.deepcopy(init))(*copy.deepcopy(ins))
    except Exception:   # the reference ran before this; a failure under the mode leaves it to the other templates
        return set()
    return seen.names


def plan(cases: list, mod: Any, op_type: str, names: set[str]) -> OwnPlan | None:
    """The plan (or refusal) from a template of its own; None when the reference calls none of their ops
    (``names``: the ATen ops its first case calls, ``ops_called``)."""
    if names & MOVING or any(n.startswith(("reflection_pad", "replication_pad", "_pad_")) for n in names):
        moved = movement.plan_move(cases, mod, op_type)
        if moved is not None:
            return moved
    if any("pool" in n for n in names):
        return pool.plan_window(cases, mod, op_type)
    if names & scatter.SCATTER_OPS or any(n.startswith("scatter_reduce") for n in names):
        return scatter.plan_scatter(cases, mod, op_type)
    if names & sort.SORT_OPS:
        return sort.plan_sort(cases, mod, op_type)
    if names & putrows.PUT_OPS:
        return putrows.plan_put(cases, mod, op_type, names)
    if names & INDEXING:
        return index.plan_index(cases, mod, op_type)
    if any("upsample" in n for n in names):
        return resize.plan_resize(cases, mod, op_type)
    if names & {"tril", "triu", "arange", "ones", "ones_like"}:   # a triangle of each matrix kept (read by value)
        return triangle.plan_triangle(cases, mod, op_type, names)
    return None
