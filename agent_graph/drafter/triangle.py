"""A triangle of each matrix kept, the rest zeroed: ``torch.tril(x, k)`` / ``torch.triu(x, k)`` of a forward input
however it is spelled (the methods, ``torch.where`` of ``arange`` compares, ``x * torch.ones(..).tril()``), onto
the ``triangle`` template.

The mask is read by value (``constmask.masked_triangle``: evaluated on each case, it must keep one triangle, the
same in every matrix), so the spelling does not matter. ``k`` may differ from case to case when it is a forward
argument (NPUKernelBench's Tril/Triu draw it per case): the op then declares it as an attribute and the host reads
it; otherwise every case must agree on it. The kernel moves elements as raw bits (only zeros are written), so
float32/float16/bfloat16/int32/int16 inputs all take it; 8-byte and 1-byte types are refused in one line.
"""
from __future__ import annotations

from typing import Any

import torch

from agent_graph.drafter import moveattrs
from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.constmask import masked_keep, triangle
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import Beside, OwnPlan, case_meta, forward_arguments, opdef_params, read_cases
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

CATEGORY = "masking"
DTYPES = ("float32", "float16", "bfloat16", "int32", "int16")   # 4- and 2-byte elements, moved as bits
MAX_TILE_COLS = 8192
VIEWS = {"alias", "clone", "contiguous", "view", "_unsafe_view", "reshape"}


def read_graph(model: Any, ins: list) -> dict | None:
    """(side, k, shape, dtype) of a reference that returns one forward input with a triangle of each matrix kept;
    None when the reference is something else (``Beside`` when it computes more)."""
    if sum(isinstance(a, torch.Tensor) for a in ins) != 1:   # the op takes the one tensor it masks
        return None
    ep = _export(model, ins)
    out = next(n for n in ep.graph.nodes if n.op == "output").args[0]
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if len(outs) != 1 or "val" not in getattr(outs[0], "meta", {}):
        return None
    shape = tuple(outs[0].meta["val"].shape)
    found = masked_keep(ep, ins, shape)
    if found is None:
        return None
    _, x, built, keep = found
    tri = triangle(keep)
    if isinstance(tri, str) and not (bool(keep.all()) or not bool(keep.any())):
        return None
    side, k = tri if not isinstance(tri, str) else (None, None)   # a mask keeping all or nothing: any side fits
    while x.op == "call_function" and x.target.__name__.split(".")[0] in VIEWS and tuple(x.meta["val"].shape) == shape:
        built.add(x.name)
        x = x.args[0]
    users = {s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT" and hasattr(s.arg, "name")}
    if x.op != "placeholder" or x.name not in users:
        raise Beside(f"a triangle of a computed value (shape {list(shape)})")
    extra = [n for n in ep.graph.nodes if n.op == "call_function" and n.name not in built
             and not n.target.__name__.startswith("_assert")]
    if extra:
        raise Beside(f"core op {extra[0].target} beside the triangle mask")
    dtype = str(x.meta["val"].dtype).replace("torch.", "")
    if dtype != str(outs[0].meta["val"].dtype).replace("torch.", ""):
        raise AnalysisError(f"a triangle of {dtype} x returned as another dtype (shape {list(shape)}) is not covered by "
                            "the triangle template")
    if dtype not in DTYPES:
        raise AnalysisError(f"torch.{'tril' if side == 'lower' else 'triu'} of {dtype} x (shape {list(shape)}) is not "
                            f"covered by the triangle template ({', '.join(DTYPES)})")
    return {"side": side, "k": k, "shape": list(shape), "dtype": dtype, "keep": keep[(0,) * (len(shape) - 2)]}


def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    lower = e["side"] == "lower"
    fn, keeps = ("tril", "j <= i + k") if lower else ("triu", "j >= i + k")
    x, y = kp.inputs[0].name, kp.outputs[0].name
    kernel = load("tri_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", x_macro=x.upper(), fn=fn, keeps=keeps,
        keeps_local="t <= edge" if lower else "t >= edge", cmp="LE" if lower else "GE",
        all_kept="edge >= static_cast<int64_t>(n) - 1" if lower else "edge <= 0",
        none_kept="edge < 0" if lower else "edge > static_cast<int64_t>(n) - 1",
        kernel_name=snake, x_name=x, y_name=y)
    helpers = ""
    if e["attr"] is not None:
        comment, *fns = load("move_attrs.tmpl").template.strip("\n").split("\n\n")
        helpers = "\n" + comment + "\n" + next(f for f in fns if "AttrInt(" in f) + "\n"
        diagonal = f"AttrInt(context, {e['attr']});   // k: the forward argument '{e['attr_name']}'"
    else:
        diagonal = f"{e['k']};   // k, the same in every case"
    params = opdef_params(kp.inputs, kp.outputs) + ("\n" + "\n".join(e["attrs"]) if e["attrs"] else "")
    host = load("tri_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, max_tile_cols=MAX_TILE_COLS,
        max_tile_kb=MAX_TILE_COLS * 4 // 1024, helpers=helpers, side_word=f"torch.{fn}", diagonal_expr=diagonal,
        params=params)
    tiling = load("tri_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def _reproduces(r: dict, k: Any, side: str) -> bool:
    """Whether torch.tril/triu(.., k) keeps what case ``r``'s mask keeps."""
    if not isinstance(k, int) or isinstance(k, bool):
        return False
    ones = torch.ones(r["keep"].shape, dtype=torch.bool)
    return torch.equal(ones.tril(k) if side == "lower" else ones.triu(k), r["keep"])


def _any_k(r: dict, side: str) -> int:
    """A diagonal that keeps all (or nothing) of case ``r``'s matrices, as its mask does."""
    rows, cols = r["keep"].shape
    everything = bool(r["keep"].all())
    if side == "lower":
        return cols - 1 if everything else -rows
    return -(rows - 1) if everything else cols


def plan_triangle(cases: list, mod: Any, op_type: str, names: set[str]) -> OwnPlan | None:
    """The plan (or refusal) for a reference that keeps a triangle of a forward input; None when it does not."""
    read = read_cases(cases, mod, read_graph, CATEGORY)
    if not isinstance(read, list):
        return read
    sides = {r["side"] for r in read if r["side"] is not None}
    if len(sides) > 1:
        return OwnPlan(CATEGORY, "the shape cases need different kernel structures (a lower triangle in some, an upper "
                                 "one in others)")
    side = sides.pop() if sides else ("upper" if "triu" in names else "lower")
    scalars = [forward_arguments(mod, ins) for _, ins in cases]
    shown = [r for r in read if r["side"] is not None]   # cases whose mask shows its diagonal
    j = moveattrs.attr_of([r["k"] for r in shown], [s for r, s in zip(read, scalars) if r["side"] is not None],
                          [None] * len(shown)) if scalars[0] and shown else None
    if j is None and scalars[0] and not shown:   # every mask keeps all or nothing: an int argument that makes them
        j = next((i for i in range(len(scalars[0])) if all(_reproduces(r, s[i][1] if i < len(s) else None, side)
                                                            for r, s in zip(read, scalars))), None)
    if j is not None:
        ks = [s[j][1] for s in scalars]
    else:
        k0 = shown[0]["k"] if shown else _any_k(read[0], side)
        ks = [k0] * len(read)
    bad = next((c for c, (r, k) in enumerate(zip(read, ks)) if not _reproduces(r, k, side)), None)
    if bad is not None:
        return OwnPlan(CATEGORY, f"the diagonal changes from case to case (case {bad} keeps another triangle than "
                                 f"k = {ks[bad]} does) and is not a forward argument")
    attrs: list[str] = []
    if j is not None:
        lines = moveattrs.attr_lines(scalars, j, set(), mod)
        if isinstance(lines, OwnPlan):
            return OwnPlan(CATEGORY, lines.reason)
        attrs = lines
    dtypes: list[str] = []
    for r in read:
        if r["dtype"] not in dtypes:
            dtypes.append(r["dtype"])
    fn = "tril" if side == "lower" else "triu"
    kp = KernelParams(op_type=op_type, template="triangle",
                      inputs=[TensorParam("x", InputKind.FULL, list(dtypes))],
                      outputs=[TensorParam("y", OutputKind.COL, list(dtypes))],
                      summary=f"ops: {fn} (k " + (f"the forward argument {scalars[0][j][0]})" if j is not None
                                                  else f"{ks[0]})"),
                      extra={"side": side, "k": ks[0], "attr": j, "attrs": attrs,
                             "attr_name": scalars[0][j][0] if j is not None else ""})
    graphs = [OpGraph(inputs=[OpNode("x", "input", [], {}, tuple(r["shape"]), r["dtype"])], init=list(init))
              for r, (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template="triangle", params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
