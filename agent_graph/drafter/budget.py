"""Unified Buffer bytes of a drafted kernel, as its InitBuffer calls add up: per tile element, per row,
per column and fixed (the host TilingFunc sizes tiles from these; the planner checks a row fits)."""
from __future__ import annotations

from agent_graph.drafter import rowreduce
from agent_graph.drafter.templates import KernelParams

UB_BUDGET = 180 * 1024
MAX_CORES = 64


def budget(kp: KernelParams) -> dict[str, int]:
    """UB bytes of one tile (worst case 4-byte data, 8-byte indices), as the kernel's InitBuffer calls add up."""
    n_full = sum(1 for p in kp.inputs if p.kind == "full")
    n_bvec = sum(1 for p in kp.inputs if p.kind == "bvec")
    per_elem = n_full * (2 * 4 + 4) + sum(2 * 4 for p in kp.outputs if p.kind == "vec") + kp.nslots * 4 + kp.nmasks
    per_elem += 2 * len(kp.round_types) + (1 if rowreduce.batched_kind(kp) else 0)   # + block results
    per_row = sum(2 * 8 + 4 for p in kp.outputs if p.kind in ("rs", "idx"))
    fixed = 4096 + 64 * 4 + 256 + 64 * len(kp.round_types) + (MAX_CORES * 32 if kp.accs else 0) + 32 * len(kp.outputs)
    fixed += 16 * 24 * len(kp.outputs)
    return {"per_elem": per_elem, "per_row": per_row, "fixed_per_col": n_bvec * 8 + 4, "fixed": fixed}


def split_budget(kp: KernelParams) -> dict[str, int]:
    """UB bytes per chunk element on the split-row path (worst case 4-byte data): every streamed input
    double-buffered plus its float copy, outputs double-buffered, slots, accumulators, reduce work."""
    streamed = sum(1 for p in kp.inputs if p.kind in ("full", "bvec"))
    per_elem = streamed * (2 * 4 + 4) + sum(2 * 4 for p in kp.outputs if p.kind == "vec") + kp.nslots * 4
    per_elem += 2 * len(kp.round_types) + 4 * kp.extra.get("split_accs", 1) + 4
    return {"per_elem": per_elem, "fixed": budget(kp)["fixed"] + 64 * 4}


def user_workspace(kp: KernelParams) -> int:
    """Bytes: 8 floats per core for the whole-tensor accumulators, then (split-row path) per pass
    8 reductions x 8 floats per core for the partial results of rows shared by several cores."""
    if kp.extra.get("split"):
        return MAX_CORES * 32 + MAX_CORES * 256 * kp.extra.get("split_passes", 1)
    return MAX_CORES * 32 if kp.accs else 0
