"""A matmul as the first stage of a staged op (``stages.py``): the cube template's kernel for the matmul and the
longest elementwise epilogue it takes, ending at an export node after which the rest of the reference (a group
norm, a batch norm over the batch, a softmax over rows too long for one cube tile, a pool) reads only that
node's value. The second stage is planned by the vector planners, as after a convolution.
"""
from __future__ import annotations

import copy
from typing import Any

from agent_graph.drafter.canonical import _export, _name, live_nodes
from agent_graph.drafter.cube import CHAIN, MM_OPS, result_views
from agent_graph.drafter.cubeplan import plan_cube

STAGE_REASONS = ("group norm", "batch statistics", "one value per row", "whole-tensor reductions", "is not covered yet",
                 "avg_pool", "max_pool", "does not fit", "is not covered by the templates", "against the matmul result",
                 "is also read by the epilogue", "the templates cover the last dimension")
"""Refusals of the one-kernel cube template that a second stage may take."""
NOT_STAGED = ("before the matmul", "matmuls in one reference", "broadcasts its",
              "permuted", "swaps dimensions", "dtype", "returns")
"""Refusals about the matmul itself: a second stage changes nothing."""


def worth_staging(reason: str) -> bool:
    """Whether the cube template's refusal is about what follows the matmul."""
    return not any(w in reason for w in NOT_STAGED) and any(w in reason for w in STAGE_REASONS)


def plan_first_stage(task: Any, cases: list, mod: Any, op_type: str, plan_type: Any, unsupported_type: Any,
                     prefix: bool | int = True) -> Any:
    """The cube plan of the matmul and the longest elementwise epilogue after it (``prefix`` True), or of the
    matmul alone (``prefix`` 0), as a first stage: its ``params.extra["last"]`` names the export node it ends at."""
    init, ins = cases[0]
    try:
        ep = _export(mod.Model(*copy.deepcopy(init)), list(ins))
    except Exception:
        return None
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    mm = next((n for n in calls if _name(n)[0] in MM_OPS), None)
    if mm is None:
        return None
    res = mm
    for v in result_views(mm):
        res = v
    live = live_nodes(ep)
    # the first stage ends at a computed value, not a view of one: the host lays out the result as the matmul's
    # shape, which a view ([M, N] -> [M, 1, 1, N]) would not match
    later = [n for n in calls[calls.index(res) + 1:] if _name(n)[0] not in CHAIN and n.name in live]
    candidates = [res] + (later if prefix is True else [])
    best = None
    for node in candidates:
        pl = plan_cube(task, cases, mod, plan_type, unsupported_type, op_type, {"mm"}, stop=node.name)
        if not isinstance(pl, plan_type):
            if best is not None:
                break        # the epilogue stops here: the longer chains hold this op too
            continue
        best = pl
    return best
