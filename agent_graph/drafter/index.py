"""Row gathers: ``index_select`` (any dimension), ``F.embedding``/``nn.Embedding`` (the table a forward input or the
module's own parameter/buffer, passed after the forward tensors as the harness does), ``x[idx]`` (one integer index
tensor on the first dimension) onto the ``index`` template.

The source is viewed as [outer, indexed, inner] and the output as [outer, picks, inner]: output row (o, k) is
source row (o, index[k]) (a negative index counts from the end, as ``x[idx]`` allows). The kernel only moves
data: the index is a scalar read from GM, each row (or chunk of a long row) goes GM -> UB -> GM.
"""
from __future__ import annotations

import inspect
from typing import Any

import torch

from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import Beside, OwnPlan, case_meta, opdef_params, read_cases
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import module_tensor_items, snake_case

INDEX_OPS = ("index_select", "embedding", "index", "gather")
PASS_THROUGH = {"expand", "remainder"}   # take_along_dim: idx.expand(same shape) % n around its gather
CATEGORY = "indexing"
VIEWS = {"view", "reshape", "_unsafe_view", "unsqueeze", "squeeze", "clone", "alias", "contiguous"}
SOURCE_DTYPES = ("float32", "float16", "bfloat16", "int32", "int64")


def _base(n: torch.fx.Node) -> str:
    return n.target.__name__.split(".")[0] if hasattr(n.target, "_schema") else getattr(n.target, "__name__", str(n.target))


def _shape(a: Any) -> list[int]:
    return list(a.meta["val"].shape) if isinstance(a, torch.fx.Node) and isinstance(a.meta.get("val"), torch.Tensor) else []


def _pass_through(n: torch.fx.Node, gather: torch.fx.Node) -> bool:
    """An op around a gather that changes nothing the kernel computes: an expand to the same shape, an index taken
    modulo the gathered dimension's size (the kernel counts a negative index from the end)."""
    b = _base(n)
    if b == "expand":
        return _shape(n) == _shape(n.args[0])
    if b == "remainder" and _base(gather) == "gather":
        src = gather.args[0].meta["val"]
        return n.args[1] == src.shape[int(gather.args[1])]
    return False


def _root(n: Any) -> Any:
    while isinstance(n, torch.fx.Node) and n.op == "call_function" and (_base(n) in VIEWS or _base(n) in PASS_THROUGH):
        if _shape(n) != _shape(n.args[0]):
            break
        n = n.args[0]
    return n


class _Pinned(torch.nn.Module):
    """The reference with its one-element integer inputs held as constants of the module: the export reads their
    values (``index_select(x, dim=axis)`` with ``axis`` a tensor is data-dependent for ``torch.export`` otherwise)."""

    def __init__(self, model: Any, ins: list, pinned: list[int]):
        super().__init__()
        self.model, self.pinned, self.width = model, {i: ins[i] for i in pinned}, len(ins)

    def forward(self, *rest: Any) -> Any:
        it = iter(rest)
        return self.model(*[self.pinned[i] if i in self.pinned else next(it) for i in range(self.width)])


def _export_pinning(model: Any, ins: list) -> tuple[Any, list[int]]:
    """The export, and the forward positions of the one-element integer inputs held as constants to get it (none
    when it needs none)."""
    try:
        return _export(model, ins), []
    except AnalysisError as e:
        if "DataDependent" not in str(e) or not all(isinstance(a, torch.Tensor) for a in ins):
            raise
        first = e
    for i, a in enumerate(ins):        # one such input at a time: the one the export needs
        if a.numel() == 1 and a.dtype in (torch.int32, torch.int64):
            try:
                return _export(_Pinned(model, ins, [i]), ins[:i] + ins[i + 1:]), [i]
            except AnalysisError:
                continue
    raise first


def read_graph(model: Any, ins: list, init: list = ()) -> dict | None:
    """What the template needs from a reference that is one row gather (views around it); None when the
    exported graph holds no row gather. The indexed dimension may be the value of a one-element integer input
    (NPUKernelBench's GatherV3: ``index_select(x, dim=axis)``): the host reads it (``dim_input``)."""
    ep, pinned = _export_pinning(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    gathers = [n for n in calls if _base(n) in INDEX_OPS]
    if not gathers:
        return None
    node = gathers[0]
    for n in calls:
        if n is not node and _base(n) not in VIEWS and not _pass_through(n, node):
            raise Beside(f"core op aten.{_base(n)} beside a row gather is not covered by the index template "
                                f"(input of shape {_shape(n.args[0]) if n.args else []})")
    base = _base(node)
    if base == "embedding":
        source, index, dim = node.args[0], node.args[1], 0
    elif base == "index_select":
        source, dim, index = node.args[0], int(node.args[1]), node.args[2]
    elif base == "gather":
        source, dim, index = node.args[0], int(node.args[1]), node.args[2]
        rank = source.meta["val"].dim()
        sv_, iv_ = list(source.meta["val"].shape), list(index.meta["val"].shape)
        d = dim % rank if rank else 0
        if len(iv_) != rank or sv_[:d] + sv_[d + 1:] != iv_[:d] + iv_[d + 1:]:
            raise AnalysisError(f"gather along dim {dim} of a source of shape {_shape(source)} with indices of shape "
                                f"{_shape(index)} is not covered by the gather template (indices sharing every "
                                f"dimension but the gathered one)")
        dim = d - rank
        if source.meta["val"].dtype == torch.int64:
            raise AnalysisError(f"gather from an int64 source of shape {_shape(source)} is not covered by the gather "
                                f"template (the vector Gather takes 2- and 4-byte elements)")
    else:
        source, idx_list = node.args[0], node.args[1]
        tensors = [i for i in idx_list if i is not None]
        if len(tensors) != 1:
            raise AnalysisError(f"advanced indexing with {len(tensors)} index tensors (source of shape "
                                f"{_shape(source)}) is not covered by the index template (one index tensor)")
        index, dim = tensors[0], idx_list.index(tensors[0])   # x[:, idx]: the slices before it are None
        rank = source.meta["val"].dim()
        if 0 < dim == rank - 1:   # x[..., idx]: the last dimension whatever the rank
            dim -= rank
    source, index = _root(source), _root(index)
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    users = [n for n in placeholders if n.name in ep.graph_signature.user_inputs]
    operands = _operands(ep, model, init, users, source, base)
    if index not in users or source not in operands:
        raise AnalysisError(f"aten.{base} with a source (shape {_shape(source)}) or indices that are neither forward "
                            f"inputs nor the module's own floating-point table is not covered by the index template")
    if len(operands) != 2:
        raise AnalysisError(f"aten.{base} of a table of shape {_shape(source)} beside {len(operands) - 2} other "
                            f"forward or module tensor(s) is not covered by the index template (the indices and "
                            f"the table only)")
    sv, iv = source.meta["val"], index.meta["val"]
    if iv.dtype not in (torch.int64, torch.int32) or str(sv.dtype).replace("torch.", "") not in SOURCE_DTYPES:
        raise AnalysisError(f"{base} of a {str(sv.dtype).replace('torch.', '')} source with "
                            f"{str(iv.dtype).replace('torch.', '')} indices is not covered by the index template")
    read = {"op": base, "dim": dim, "source_input": operands.index(source), "index_input": operands.index(index),
            "dtypes": [str(u.meta["val"].dtype).replace("torch.", "") for u in operands],
            "shapes": [_shape(u) for u in operands], "forward": len(users), "dim_input": None}
    return _with_pinned(read, ins, pinned, sv.dim()) if pinned else read


def _with_pinned(read: dict, ins: list, pinned: list[int], rank: int) -> dict:
    """``read`` in the forward's positions with the pinned inputs back in place; the one whose value is the indexed
    dimension becomes ``dim_input``. A pinned value that is not the dimension would be baked into the kernel: refused."""
    dims = [i for i in pinned if int(ins[i]) % max(rank, 1) == read["dim"] % max(rank, 1)]
    if not dims or read["op"] == "gather":
        raise AnalysisError(f"aten.{read['op']} reads one-element integer input {pinned[0]} as a number that is not "
                            f"its indexed dimension (it would be baked into the kernel): not covered by the index template")
    if read["forward"] != len(ins) - 1:
        raise AnalysisError(f"aten.{read['op']} of the module's own table with a dimension given as an input is not "
                            f"covered by the index template")
    place = [i for i in range(len(ins)) if i not in pinned]
    dtypes, shapes = list(read["dtypes"]), list(read["shapes"])
    for i in pinned:
        dtypes.insert(i, str(ins[i].dtype).replace("torch.", ""))
        shapes.insert(i, list(ins[i].shape))
    return {**read, "source_input": place[read["source_input"]], "index_input": place[read["index_input"]],
            "dtypes": dtypes, "shapes": shapes, "forward": len(ins), "dim_input": dims[0]}


def _operands(ep: Any, model: Any, init: list, users: list, source: Any, base: str) -> list:
    """The op's inputs in the harness's order: the forward tensors, then, when the source is the module's own
    table (``nn.Embedding``'s weight, a parameter or floating-point buffer), the module tensors up to it."""
    if source in users or source.op != "placeholder":
        return users
    sig = ep.graph_signature
    target = sig.inputs_to_parameters.get(source.name) or sig.inputs_to_buffers.get(source.name)
    names = [nm for nm, _ in module_tensor_items(model, init)]
    if target not in names or any(hasattr(t, "shape") for t in init):
        raise AnalysisError(f"aten.{base} reads the module tensor '{target}' (shape {_shape(source)}), which is not "
                            f"one the harness passes (a floating-point parameter or buffer, no tensors given to "
                            f"__init__), so it is not covered by the index template")
    return users + [None] * names.index(target) + [source]


DIM_FROM_INPUT = """\
    // the dimension is input DIM_INPUT's one value (the OpDef declares it ValueDepend: copied to the host for tiling)
    const gert::Tensor* dimTensor = context->GetInputTensor(DIM_INPUT);
    if (dimTensor == nullptr || dimTensor->GetShapeSize() != 1) return ge::GRAPH_FAILED;
    int64_t dimValue = static_cast<int64_t>(InputNumber(context, DIM_INPUT));
    int64_t dim = dimValue < 0 ? dimValue + rank : dimValue;"""


def _dim_code(e: dict) -> tuple[str, str]:
    """The host's indexed dimension: the constant the reference gives, or the value of the input it reads it from."""
    if e.get("dim_input") is not None:
        return (load("input_number_host.tmpl").template.strip("\n") + "\n\n"
                f"constexpr size_t DIM_INPUT = {e['dim_input']};             // the input holding the indexed dimension",
                DIM_FROM_INPUT)
    return (f"constexpr int64_t DIM = {e['dim']};                    // the indexed dimension of the source",
            "    int64_t dim = DIM < 0 ? DIM + rank : DIM;")


def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    src, idx, y = kp.inputs[e["source_input"]], kp.inputs[e["index_input"]], kp.outputs[0]
    family = "gather" if e["op"] == "gather" else "index"
    kernel = load(f"{family}_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", src_macro=src.name.upper(),
        wait_pipe=load("wait_pipe.tmpl").template.rstrip("\n"),
        idx_macro=idx.name.upper(), kernel_name=snake, src_name=src.name, idx_name=idx.name, out_name=y.name,
        kernel_args=", ".join(f"GM_ADDR {p.name}" for p in (*kp.inputs, y)))
    # the host reads the dimension's input (ValueDepend)
    params = opdef_params(kp.inputs, [y], {kp.inputs[e["dim_input"]].name} if e.get("dim_input") is not None else set())
    dim_decl, dim_code = _dim_code(e)
    host = load(f"{family}_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, params=params, dim_decl=dim_decl, dim_code=dim_code,
        source_input=e["source_input"], index_input=e["index_input"], from_end=-int(e["dim"]))
    tiling = load(f"{family}_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def plan_index(cases: list, mod: Any, op_type: str) -> OwnPlan | None:
    """The plan (or refusal) for a reference that gathers rows; None when it does not."""
    init_of = {id(ins): init for init, ins in cases}   # the reader sees a case's forward inputs, not its init
    read = read_cases(cases, mod, lambda model, ins: read_graph(model, ins, init_of[id(ins)]), CATEGORY)
    if not isinstance(read, list):
        return read
    # (a dimension read from an input may differ between the cases: the host reads each case's)
    if len({(r["op"], r["dim"] if r["dim_input"] is None else None, r["dim_input"], r["source_input"], r["index_input"],
             r["forward"]) for r in read}) > 1:
        return OwnPlan(CATEGORY, "the shape cases gather along different dimensions (one kernel must serve every case)")
    combos: list[list[str]] = []
    for r in read:
        if r["dtypes"] not in combos:
            combos.append(r["dtypes"])
    r0 = read[0]
    roles = ["x"] * len(r0["dtypes"])
    roles[r0["source_input"]] = "weight" if r0["op"] == "embedding" else "x"
    roles[r0["index_input"]] = "indices"
    if r0["dim_input"] is not None:
        # named as the forward names them: a binding may pass them in another order (GatherV3: x, indices, axis),
        # and the harness maps the op's inputs to the binding's by name
        names = [n for n in inspect.signature(mod.Model.forward).parameters][1:]
        roles[r0["dim_input"]] = "axis"
        if len(names) == len(roles) and len(set(names)) == len(names) and all(n.isidentifier() for n in names):
            roles = names
    src = r0["source_input"]
    template = "gather" if r0["op"] == "gather" else "index"
    kp = KernelParams(op_type=op_type, template=template,
                      inputs=[TensorParam(roles[i], InputKind.FULL, [c[i] for c in combos]) for i in range(len(roles))],
                      outputs=[TensorParam("y", OutputKind.COL, [c[src] for c in combos])],
                      summary=f"ops: {r0['op']} along " + (f"dim {r0['dim']}" if r0["dim_input"] is None else
                                                                   f"the dimension input '{roles[r0['dim_input']]}' holds"),
                      extra=dict(r0))
    graphs = [OpGraph(inputs=[OpNode(roles[i], "input", [], {}, tuple(shape), dt)
                              for i, (shape, dt) in enumerate(zip(r["shapes"], r["dtypes"])) if i < r["forward"]],
                      init=list(init))
              for r, (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template=template, params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
