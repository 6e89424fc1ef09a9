"""Unified Buffer bytes of a drafted kernel: the sum of what its operands and scratch buffers report for the
InitBuffer calls they write (operands.py, scratch.py), per tile element, per row, per column and fixed (the host
TilingFunc sizes tiles from these; the planner checks a row fits)."""
from __future__ import annotations

from agent_graph.drafter import operands, rowreduce
from agent_graph.drafter.operands import MAX_CORES, Layout, UbBytes, total
from agent_graph.drafter.scratch import Scratch
from agent_graph.drafter.templates import KernelParams

UB_BUDGET = 180 * 1024


def operand_layout(kp: KernelParams) -> Layout:
    """The template paths the operands' code and bytes depend on."""
    batched = rowreduce.batched_kind(kp) is not None
    row = kp.template == "row"
    each = kp.extra.get("foreach", {})
    return Layout(row=row, split=row and bool(kp.extra.get("split")), batched=row and batched,
                  pad_value=rowreduce.pad_value(kp) if row and batched else "0",
                  lists=frozenset(each.get("lists", ())), per_item=frozenset(each.get("per_item", ())),
                  wide=8 if any(d == "int64" for p in (*kp.inputs, *kp.outputs) for d in p.dtypes) else 4)


def _parts(kp: KernelParams) -> tuple[list[operands.Input], list[operands.Output], Scratch]:
    lay = operand_layout(kp)
    return operands.inputs(kp.inputs, lay, kp.extra.get("windows")), operands.outputs(kp.outputs, lay, kp.extra.get("pieces")), Scratch(kp, lay)


def budget(kp: KernelParams) -> dict[str, int]:
    """UB bytes of one tile (worst case 4-byte data or 8-byte where an operand is int64, 8-byte indices), as the kernel's InitBuffer calls add up."""
    ins, outs, scratch = _parts(kp)
    b = total(op.ub() for op in (*ins, *outs)) + scratch.ub()
    return {"per_elem": b.per_elem, "per_row": b.per_row, "fixed_per_col": b.per_col, "fixed": b.fixed}


def split_budget(kp: KernelParams) -> dict[str, int]:
    """UB bytes per chunk element on the split-row path (worst case 4-byte data): every streamed input
    double-buffered plus its float copy, outputs double-buffered, slots, accumulators, reduce work; fixed:
    the row path's plus the chunk work buffer's tail."""
    ins, outs, scratch = _parts(kp)
    per_elem = total(op.chunk_ub() for op in (*ins, *outs)) + scratch.chunk_ub()
    tail = total(b.ub for b in scratch.chunk_work())
    return {"per_elem": per_elem.per_elem, "fixed": budget(kp)["fixed"] + tail.fixed}


def user_workspace(kp: KernelParams) -> int:
    """Bytes: 8 floats per core for the whole-tensor accumulators, then (split-row path) per pass
    8 reductions x 8 floats per core for the partial results of rows shared by several cores."""
    if kp.extra.get("split"):
        return MAX_CORES * 32 + MAX_CORES * 256 * kp.extra.get("split_passes", 1)
    return MAX_CORES * 32 if kp.accs else 0


__all__ = ["MAX_CORES", "UB_BUDGET", "UbBytes", "budget", "operand_layout", "split_budget", "user_workspace"]
