"""Element scatters along the last dimension: ``scatter`` (src) and ``scatter_add`` (``aten.scatter.src``,
``aten.scatter_add.default``) onto the ``scatter`` template: y = x, then y[r, index[r, k]] = (or +=) src[r, k].

The index and src share a shape whose leading dimensions are x's (the usual ``x.scatter(1, idx, src)``). With
duplicate indices a ``scatter`` keeps the last write in index order (PyTorch's CPU loop; PyTorch documents the
choice as undefined), a ``scatter_add`` sums them all in index order."""
from __future__ import annotations

from typing import Any

from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import (Beside, OwnPlan, aten_base, case_meta, fx_shape, opdef_params, read_cases,
                                         update_inputs, view_root)
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

SCATTER_OPS = {"scatter", "scatter_add", "scatter_"}   # eager names (special.ops_called)
CATEGORY = "indexing"
VIEWS = {"view", "reshape", "_unsafe_view", "clone", "alias", "contiguous"}
DTYPES = ("float32", "float16", "bfloat16")
UB_LIMIT = 180 * 1024   # scatter_host.cpp.tmpl's limit, checked here to refuse early


def read_graph(model: Any, ins: list) -> dict | None:
    """x, index and src positions and whether the scatter adds; None when the exported graph holds no scatter."""
    ep = _export(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    nodes = [n for n in calls if str(n.target) in ("aten.scatter.src", "aten.scatter_add.default")]
    if not nodes:
        others = [n for n in calls if aten_base(n).startswith("scatter")]
        if others:
            raise AnalysisError(f"core op {others[0].target} (x of shape {fx_shape(others[0].args[0])}) is not covered by "
                                f"the scatter template (scatter with a src tensor and scatter_add are)")
        return None
    node = nodes[0]
    x, dim, index, src = node.args[0], int(node.args[1]), node.args[2], node.args[3]
    shape, picks = fx_shape(x), fx_shape(index)
    for n in calls:
        if n is not node and aten_base(n) not in VIEWS:
            raise Beside(f"core op aten.{aten_base(n)} beside a scatter is not covered by the scatter template "
                         f"(x of shape {shape})")
    rank = len(shape)
    if rank == 0 or dim % rank != rank - 1 or picks[:-1] != shape[:-1] or fx_shape(src) != picks:
        raise AnalysisError(f"{node.target} along dim {dim} of x of shape {shape} with index {picks} and src "
                            f"{fx_shape(src)} is not covered by the scatter template (the last dimension, index and src "
                            f"of one shape sharing x's leading dimensions)")
    if (-(-shape[-1] // 8) * 8 + 8) * 4 * 3 + (-(-picks[-1] // 8) * 8 + 8) * 4 * 2 > UB_LIMIT:
        raise AnalysisError(f"{node.target} of rows {shape[-1]} long with {picks[-1]} picks (x of shape {shape}) does "
                            f"not fit the scatter template's UB (one row at a time)")
    x, index, src = view_root(x, VIEWS), view_root(index, VIEWS), view_root(src, VIEWS)
    return {"add": aten_base(node) == "scatter_add",
            **update_inputs(ep, x, index, src, str(node.target), "scatter", shape, DTYPES)}

def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    x, idx, values, y = kp.inputs[e["x_input"]], kp.inputs[e["index_input"]], kp.inputs[e["values_input"]], kp.outputs[0]
    verb, rule = ("+=", "duplicates all add") if e["add"] else ("=", "of duplicates the last wins")
    kernel = load("scatter_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", x_macro=x.name.upper(),
        idx_macro=idx.name.upper(), kernel_name=snake, x_name=x.name, idx_name=idx.name, values_name=values.name,
        out_name=y.name, verb=verb, rule=rule, accumulate="true" if e["add"] else "false",
        wait_pipe=load("wait_pipe.tmpl").template.rstrip("\n"),
        kernel_args=", ".join(f"GM_ADDR {p.name}" for p in (*kp.inputs, y)))
    host = load("scatter_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, params=opdef_params(kp.inputs, [y]),
        x_input=e["x_input"], index_input=e["index_input"])
    tiling = load("scatter_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def plan_scatter(cases: list, mod: Any, op_type: str) -> OwnPlan | None:
    """The plan (or refusal) for a reference that scatters along its last dimension; None when it does not."""
    read = read_cases(cases, mod, read_graph, CATEGORY)
    if not isinstance(read, list):
        return read
    if len({(r["add"], r["x_input"], r["index_input"], r["values_input"]) for r in read}) > 1:
        return OwnPlan(CATEGORY, "the shape cases scatter differently (one kernel must serve every case)")
    combos: list[list[str]] = []
    for r in read:
        if r["dtypes"] not in combos:
            combos.append(r["dtypes"])
    r0 = read[0]
    roles = ["x", "x", "x"]
    roles[r0["index_input"]], roles[r0["values_input"]] = "indices", "src"
    kp = KernelParams(op_type=op_type, template="scatter",
                      inputs=[TensorParam(roles[i], InputKind.FULL, [c[i] for c in combos]) for i in range(3)],
                      outputs=[TensorParam("y", OutputKind.COL, [c[r0["x_input"]] for c in combos])],
                      summary=f"ops: {'scatter_add' if r0['add'] else 'scatter'} along the last dimension",
                      extra=dict(r0))
    graphs = [OpGraph(inputs=[OpNode(roles[i], "input", [], {}, tuple(s), d) for i, (s, d) in
                              enumerate(zip(r["shapes"], r["dtypes"]))], init=list(init)) for r, (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template="scatter", params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
