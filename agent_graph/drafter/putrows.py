"""Row updates: ``index_copy``, ``index_add`` (alpha 1), ``x[idx] = v`` / ``index_put_`` (one index tensor, either
accumulate) onto the ``index_put`` template. Core ATen spells them all ``index_put(x, [None, .., idx], values,
accumulate)``: x is viewed as [outer, indexed, inner], the values as [outer, picks, inner]; row (o, idx[k]) of the
result is values row (o, k) (copy: the last pick of a row wins, PyTorch's sequential result) or x's row plus every
values row picked for it (accumulate: duplicates sum, in pick order)."""
from __future__ import annotations

from typing import Any

import torch

from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import (Beside, OwnPlan, aten_base, case_meta, fx_shape, opdef_params, read_cases,
                                         update_inputs, view_root)
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

PUT_OPS = {"index_add", "index_copy", "index_put", "index_put_"}   # eager names (special.ops_called)
CATEGORY = "indexing"
VIEWS = {"view", "reshape", "_unsafe_view", "clone", "alias", "contiguous", "copy"}
DTYPES = ("float32", "float16", "bfloat16")


def read_graph(model: Any, ins: list) -> dict | None:
    """x, index and values positions, the indexed dimension and accumulate of a reference that is one row update;
    None when the exported graph holds none."""
    ep = _export(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    puts = [n for n in calls if aten_base(n) == "index_put"]
    if not puts:
        return None
    node = puts[0]
    x, positions, values = node.args[0], node.args[1], node.args[2]
    accumulate = bool(node.args[3]) if len(node.args) > 3 else False
    shape = fx_shape(x)
    for n in calls:
        if n is not node and aten_base(n) not in VIEWS:
            raise Beside(f"core op aten.{aten_base(n)} beside a row update is not covered by the index_put template "
                         f"(input of shape {shape})")
    tensors = [i for i in positions if i is not None]
    if len(tensors) != 1 or any(i is not None for i in positions[positions.index(tensors[0]) + 1:]):
        raise AnalysisError(f"index_put with {len(tensors)} index tensors (x of shape {shape}) is not covered by the "
                            f"index_put template (one index tensor on one dimension)")
    dim = positions.index(tensors[0])
    index = view_root(tensors[0], VIEWS)
    x, values = view_root(x, VIEWS), view_root(values, VIEWS)
    picks = fx_shape(index)
    want = shape[:dim] + [int(torch.tensor(picks).prod())] + shape[dim + 1:]
    if len(picks) != 1 or fx_shape(values) != want:
        raise AnalysisError(f"index_put of values of shape {fx_shape(values)} at indices of shape {picks} into x of shape "
                            f"{shape} is not covered by the index_put template (one row of values per index, no "
                            f"broadcast)")
    return {"dim": dim, "accumulate": accumulate,
            **update_inputs(ep, x, index, values, "index_put", "index_put", shape, DTYPES)}

def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    x, idx, values, y = kp.inputs[e["x_input"]], kp.inputs[e["index_input"]], kp.inputs[e["values_input"]], kp.outputs[0]
    verb, rule = (("plus", "Duplicate picks of a row all add, in pick order.") if e["accumulate"] else
                  ("replaced by", "Of duplicate picks of a row the last wins, as PyTorch's sequential loop leaves it."))
    kernel = load("index_put_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", x_macro=x.name.upper(),
        idx_macro=idx.name.upper(), kernel_name=snake, x_name=x.name, idx_name=idx.name, values_name=values.name,
        out_name=y.name, verb=verb, rule=rule, accumulate="true" if e["accumulate"] else "false",
        round_each=e.get("round_each", "false"),
        kernel_args=", ".join(f"GM_ADDR {p.name}" for p in (*kp.inputs, y)))
    host = load("index_put_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, params=opdef_params(kp.inputs, [y]),
        x_input=e["x_input"], index_input=e["index_input"], dim=e["dim"])
    tiling = load("index_put_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def plan_put(cases: list, mod: Any, op_type: str, names: set[str] = frozenset()) -> OwnPlan | None:
    """The plan (or refusal) for a reference that updates rows at indices; None when it does not (``names``: the
    ATen ops its eager run calls)."""
    read = read_cases(cases, mod, read_graph, CATEGORY)
    if not isinstance(read, list):
        return read
    if len({(r["dim"], r["accumulate"], r["x_input"], r["index_input"], r["values_input"]) for r in read}) > 1:
        return OwnPlan(CATEGORY, "the shape cases update rows along different dimensions (one kernel must serve every case)")
    combos: list[list[str]] = []
    for r in read:
        if r["dtypes"] not in combos:
            combos.append(r["dtypes"])
    r0 = read[0]
    roles = ["x", "x", "x"]
    roles[r0["index_input"]], roles[r0["values_input"]] = "indices", "values"
    how = "index_add" if r0["accumulate"] else "index_copy"
    # PyTorch's CPU kernels add 16-bit rows in their own type, rounding every sum, except index_add of a tensor
    # of rank 2 or more, which adds in float and rounds once (measured against torch 2.x; both in pick order)
    rank = len(read[0]["shapes"][r0["x_input"]])
    r0 = dict(r0, round_each="true" if r0["accumulate"] and not ("index_add" in names and rank >= 2) else "false")
    kp = KernelParams(op_type=op_type, template="index_put",
                      inputs=[TensorParam(roles[i], InputKind.FULL, [c[i] for c in combos]) for i in range(3)],
                      outputs=[TensorParam("y", OutputKind.COL, [c[r0["x_input"]] for c in combos])],
                      summary=f"ops: index_put (accumulate={r0['accumulate']}, {how} of rows) along dim {r0['dim']}",
                      extra=dict(r0))
    graphs = [OpGraph(inputs=[OpNode(roles[i], "input", [], {}, tuple(s), d) for i, (s, d) in
                              enumerate(zip(r["shapes"], r["dtypes"]))], init=list(init)) for r, (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template="index_put", params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
