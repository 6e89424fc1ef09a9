"""Data movement (template ``move``): permute/transpose, cat/stack, constant pad, repeat/tile, split/chunk/
unbind/narrow, flip, roll, repeat_interleave and expand copies, each read from the reference's core ATen graph.

Every output element is one source element or the fill value, so one kernel serves them all: the host describes
each output dimension as pieces (``templates/move_plan_*.tmpl`` build them from the runtime shapes and the
op's parameters), the kernel walks output rows and moves each piece of a row with one copy (contiguous) or a
read + Gather (strided, reversed, repeated). A parameter the reference takes as a forward argument (NPUKernelBench's
``dims``, ``pad``, ``repeats``, ``dim``) is the op's attribute of that name, read by the host at run time; one
fixed in the reference is a constant of the host. Refused in one sentence: other ops beside the movement,
sources of different dtypes, 1-byte elements (Gather moves 2- and 4-byte ones; 8-byte int64 elements move as two
4-byte words: the host plans one more dimension of 2, so a constant pad of int64 fills with 0 only), more than
``MAX_OUTPUTS`` outputs or ``MAX_SOURCES`` sources.
"""
from __future__ import annotations

import inspect
import math
import operator
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import torch

from agent_graph.drafter import moveattrs
from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _export, decompositions
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import (Beside, OwnPlan, aten_base, case_meta, forward_arguments, fx_shape,
                                          opdef_params, read_cases)
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

CATEGORY = "movement"
MAX_OUTPUTS = 8
MAX_SOURCES = 8
MAX_RANK = 8
MAX_PIECES = 64
CHUNK = 1024      # output elements per work unit (a strided read of CHUNK elements: 32 KB of UB)
DTYPES = ("float32", "float16", "bfloat16", "int32", "int16", "int64")   # int64: as two 4-byte words
MOVE_OPS = {"permute", "cat", "constant_pad_nd", "pad", "roll", "repeat", "split_with_sizes", "slice", "flip", "expand"}
# around the movement: copies and views that keep the memory order of what they take
PAD_MODES = ("constant", "reflect", "replicate", "circular")
VIEWS = {"view", "reshape", "_unsafe_view", "unsqueeze", "squeeze", "alias", "flatten"}
KEEP = {"clone", "contiguous", "alias", "_unsafe_view", "view", "reshape", "squeeze", "unsqueeze", "getitem"}

Kind = Literal["permute", "cat", "pad", "repeat", "split", "flip", "interleave", "expand", "roll"]


@dataclass
class Param:
    """One parameter of the movement: per case its value; ``attr`` the forward argument it is (None: a constant)."""

    name: str
    values: list[Any]
    attr: int | None = None


@dataclass
class Read:
    """One case's movement: the kind, its parameters (by name), the sources and outputs."""

    kind: Kind
    params: dict[str, Any]
    sources: list[Any]          # source placeholders in op-input order
    dtypes: list[str]           # of the op's inputs
    shapes: list[list[int]]
    outputs: int
    list_input: bool            # the sources are one forward list argument (a DYNAMIC input)
    view: tuple | None = None   # between the inputs and the movement (``_source_views``)
    rank: int = 0               # of the tensors the movement takes


def _val(n: Any) -> Any:
    return n.meta.get("val") if isinstance(n, torch.fx.Node) else None


def _dtype(n: Any) -> str:
    return str(_val(n).dtype).replace("torch.", "")


def _base(n: torch.fx.Node) -> str:
    return "getitem" if n.target is operator.getitem else aten_base(n)


def _export_moves(model: Any, ins: list) -> Any:
    """The reference's core ATen graph with ``aten.pad`` and ``aten.roll`` kept whole (decomposed, they are index
    arithmetic; whole, their mode and shifts say which source position each output one reads)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ep = torch.export.export(model, tuple(ins), strict=False)
            table = decompositions()
            table.pop(torch.ops.aten.pad.default, None)
            table.pop(torch.ops.aten.roll.default, None)
            return ep.run_decompositions(table)
    except Exception:
        return _export(model, ins)     # the same refusal the other templates give, with its message


def read_graph(model: Any, ins: list) -> Read | None:
    """The movement one case of the reference performs; None when its graph holds no movement op."""
    ep = _export_moves(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    names = [_base(n) for n in calls]
    if not any(b in MOVE_OPS for b in names):
        return None
    users = [n for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs
             and isinstance(_val(n), torch.Tensor)]
    result = ep.graph.output_node().args[0]
    outs = list(result) if isinstance(result, (list, tuple)) else [result]
    other = [b for b in names if b not in MOVE_OPS and b not in KEEP]
    slices = [n for n in calls if _base(n) == "slice"]
    if "expand" in names and any(b == "clone" for b in names) and "unsqueeze" in names and names.count("expand") == 1:
        node = next(n for n in calls if _base(n) == "expand")
        src = node.args[0]
        if _base(src) == "unsqueeze" and not other:   # x.unsqueeze(d + 1).expand(.., r, ..) then merged: interleave
            x, d = src.args[0], int(src.args[1])
            shape, wide = fx_shape(x), fx_shape(node)
            rank = len(shape)
            d = d % (rank + 1)
            if d >= 1 and len(wide) == rank + 1 and fx_shape(outs[0]) in (shape[:d - 1] + [shape[d - 1] * wide[d]] + shape[d:],
                                                                             [math.prod(shape) * wide[d]]):
                flat = len(fx_shape(outs[0])) == 1 and rank > 1
                return _finish(ep, users, outs, "interleave",
                               {"repeats": wide[d], "dim": 0 if flat else d - 1 - rank, "flatten": flat}, [x])
    if other:
        raise Beside(f"core op aten.{other[0]} beside a data movement")
    movers = [n for n in calls if _base(n) in MOVE_OPS]
    head = movers[0]
    base = _base(head)
    if base == "slice" and len(movers) == len(slices):                 # narrow, unbind, a slice per output
        x = head.args[0]
        dims = {int(n.args[1]) % max(len(fx_shape(x)), 1) for n in slices}
        if len(dims) != 1 or any(n.args[0] is not x for n in slices) or any(len(n.args) > 4 and n.args[4] != 1 for n in slices):
            raise AnalysisError(f"slices of input of shape {fx_shape(x)} along different dimensions or with a step are "
                                f"not covered by the move template")
        dim = dims.pop()
        n = fx_shape(x)[dim]
        bounds = []
        for s in slices:
            start = int(s.args[2]) if len(s.args) > 2 and s.args[2] is not None else 0
            end = int(s.args[3]) if len(s.args) > 3 and s.args[3] is not None else n
            start, end = (start + n if start < 0 else start), (end + n if end < 0 else end)
            bounds.append((min(max(start, 0), n), min(max(end, 0), n)))
        return _finish(ep, users, outs, "split", {"bounds": bounds, "dim": dim - len(fx_shape(x)), "n": n}, [x])
    if len(movers) != 1:
        raise AnalysisError(f"{len(movers)} data movements one after another (core ops "
                            f"{', '.join('aten.' + _base(m) for m in movers)}) are not covered by the move template")
    if base == "permute":
        return _finish(ep, users, outs, "permute", {"dims": [int(d) for d in head.args[1]]}, [head.args[0]])
    if base == "cat":
        srcs = list(head.args[0])
        dim = int(head.args[1]) if len(head.args) > 1 else 0
        rank = len(fx_shape(srcs[0]))
        return _finish(ep, users, outs, "cat", {"dim": dim % rank - rank}, srcs)
    if base in ("constant_pad_nd", "pad"):
        mode = "constant" if base == "constant_pad_nd" else str(head.args[2] if len(head.args) > 2 else "constant")
        value = head.args[2] if base == "constant_pad_nd" else (head.args[3] if len(head.args) > 3 else None)
        if mode not in PAD_MODES:
            raise AnalysisError(f"pad mode '{mode}' (input of shape {fx_shape(head.args[0])}) is not covered by the move "
                                f"template ({', '.join(PAD_MODES)})")
        return _finish(ep, users, outs, "pad", {"pad": [int(p) for p in head.args[1]], "mode": mode,
                                                 "value": float(value) if value is not None else 0.0}, [head.args[0]])
    if base == "repeat":
        return _finish(ep, users, outs, "repeat", {"reps": [int(r) for r in head.args[1]]}, [head.args[0]])
    if base == "split_with_sizes":
        x = head.args[0]
        dim = int(head.args[2]) if len(head.args) > 2 else 0
        sizes = [int(s) for s in head.args[1]]
        starts = [sum(sizes[:k]) for k in range(len(sizes))]
        bounds = [(a, a + s) for a, s in zip(starts, sizes)]
        rank = len(fx_shape(x))
        return _finish(ep, users, outs, "split", {"bounds": bounds, "dim": dim % rank - rank, "n": fx_shape(x)[dim]}, [x])
    if base == "flip":
        x = head.args[0]
        rank = len(fx_shape(x))
        return _finish(ep, users, outs, "flip", {"dims": sorted(int(d) % rank - rank for d in head.args[1])}, [x])
    if base == "roll":
        x = head.args[0]
        dims = [int(d) for d in head.args[2]] if len(head.args) > 2 and head.args[2] else []
        return _finish(ep, users, outs, "roll", {"shifts": [int(v) for v in head.args[1]], "dims": dims}, [x])
    if base == "expand":
        x = head.args[0]
        return _finish(ep, users, outs, "expand", {"sizes": [int(s) for s in head.args[1]]}, [x])
    raise AnalysisError(f"core op aten.{base} is not covered by the move template")


def _source_views(sources: list, users: list) -> tuple[list, tuple | None]:
    """The forward tensors behind the movement's sources and the view between: ("unsqueeze", d) when every source
    is its input with a new dimension at d (torch.stack along d), ("shape", [...]) for one source read through a
    reshape; None when the sources are the inputs themselves."""
    if all(s in users for s in sources):
        return sources, None
    if all(isinstance(s, torch.fx.Node) and _base(s) == "unsqueeze" and s.args[0] in users for s in sources):
        dims = {int(s.args[1]) % len(fx_shape(s)) - len(fx_shape(s)) for s in sources}
        if len(dims) == 1:
            return [s.args[0] for s in sources], ("unsqueeze", dims.pop())
    if len(sources) == 1:
        x = sources[0]
        while isinstance(x, torch.fx.Node) and x.op == "call_function" and _base(x) in VIEWS:
            x = x.args[0]
        if x in users:
            return [x], ("shape", fx_shape(sources[0]))
    return sources, None


def _finish(ep: Any, users: list, outs: list, kind: Kind, params: dict, sources: list) -> Read:
    rank = len(fx_shape(sources[0])) if sources else 0
    sources, view = _source_views(sources, users)
    shape = fx_shape(sources[0]) if sources else []
    if any(s not in users for s in sources):
        raise AnalysisError(f"{kind} of a tensor (shape {shape}) that is not a forward input is not covered by the "
                            f"move template")
    if len(sources) > MAX_SOURCES or len(outs) > MAX_OUTPUTS:
        raise AnalysisError(f"{kind} of {len(sources)} tensor(s) into {len(outs)} output(s) (input of shape {shape}) is "
                            f"not covered by the move template (at most {MAX_SOURCES} inputs and {MAX_OUTPUTS} outputs)")
    dtypes = {_dtype(s) for s in sources}
    if len(dtypes) != 1 or not dtypes <= set(DTYPES):
        raise AnalysisError(f"{kind} of {' and '.join(sorted(dtypes))} tensors (input of shape {shape}) is not covered by "
                            f"the move template (one dtype of {', '.join(DTYPES)})")
    if len(users) != len(set(sources)) or any(u not in sources for u in users):
        raise AnalysisError(f"{kind} whose forward tensors are not exactly its sources (input of shape {shape}) is not "
                            f"covered by the move template")
    order = [users.index(s) for s in sources]
    return Read(kind, params, order, [_dtype(u) for u in users], [fx_shape(u) for u in users], len(outs), False,
                view, rank)


# ---- planning and rendering --------------------------------------------------------------------------------

def _read_all(cases: list, mod: Any) -> list[Read] | OwnPlan | None:
    def read(model: Any, ins: list) -> Read | None:
        r = read_graph(model, ins)
        if r is not None:   # the sources are one forward list of tensors: the op's DYNAMIC input
            r.list_input = any(isinstance(a, (list, tuple)) and a and all(isinstance(t, torch.Tensor) for t in a)
                               for a in ins)
        return r
    return read_cases(cases, mod, read, CATEGORY)


def plan_move(cases: list, mod: Any, op_type: str) -> OwnPlan | None:
    """The plan (or refusal) for a reference that only moves data; None when it does something else too."""
    reads = _read_all(cases, mod)
    if not isinstance(reads, list):
        return reads
    r0 = reads[0]
    dynamic_out = r0.kind == "split" and len({r.outputs for r in reads}) > 1   # a list of outputs, as many as the case makes
    if len({(r.kind, r.outputs if not dynamic_out else 0, r.list_input, len(r.dtypes) if not r.list_input else 0)
            for r in reads}) > 1:
        return OwnPlan(CATEGORY, f"the shape cases move data differently ({r0.kind} into {r0.outputs} output(s) in the "
                                 f"first) and one kernel must serve every case")
    wide = [r for r in reads if r.dtypes[0] == "int64" and r.kind == "pad" and r.params.get("mode") == "constant"
            and float(r.params.get("value") or 0) != 0]
    if wide:   # 8-byte elements move as two 4-byte words: one fill word cannot hold the value
        return OwnPlan(CATEGORY, f"a constant pad of int64 tensors with the value {wide[0].params['value']} (input of shape "
                                 f"{wide[0].shapes[0]}) is not covered by the move template (int64 pads with 0 only)")
    scalars = [forward_arguments(mod, ins) for _, ins in cases]
    ranks = [r.rank or None for r in reads]
    views = {repr(r.view) for r in reads}
    if len(views) > 1:
        return OwnPlan(CATEGORY, f"the inputs are reshaped differently from case to case before the {r0.kind} "
                                 f"({r0.view[1] if r0.view else 'no reshape'} in the first case) and the move template "
                                 f"reads one reshape")
    try:
        code, used, lists = _plan_code(r0.kind, reads, scalars, ranks, dynamic_out)
    except AnalysisError as e:
        return OwnPlan(CATEGORY, str(e))
    attrs = moveattrs.attr_lines(scalars, max(used, default=-1), lists, mod)
    if isinstance(attrs, OwnPlan):
        return attrs
    combos: list[str] = []
    for r in reads:
        if r.dtypes[0] not in combos:
            combos.append(r.dtypes[0])
    names = _input_names(mod, r0)
    inputs = [TensorParam(n, InputKind.FULL, list(combos)) for n in names]
    outputs = [TensorParam("y" if r0.outputs == 1 or dynamic_out else f"y{k}", OutputKind.COL, list(combos))
               for k in range(1 if dynamic_out else r0.outputs)]
    summary = f"ops: {r0.kind}" + (f" into {r0.outputs} outputs" if r0.outputs > 1 else "")
    kp = KernelParams(op_type=op_type, template="move", inputs=inputs, outputs=outputs, summary=summary,
                      extra={"kind": r0.kind, "list_input": r0.list_input, "dynamic_out": dynamic_out, "view": r0.view, "sources": r0.sources, "plan_code": code,
                             "attrs": attrs, "used": sorted(used)})
    graphs = [OpGraph(inputs=[OpNode(names[0] if r.list_input else names[i], "input", [], {}, tuple(s), d)
                              for i, (s, d) in enumerate(zip(r.shapes, r.dtypes))], init=list(init))
              for r, (init, _) in zip(reads, cases)]
    return OwnPlan(CATEGORY, template="move", params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))


def _plan_code(kind: Kind, reads: list[Read], scalars: list, ranks: list,
               dynamic_out: bool) -> tuple[str, set[int], set[int]]:
    """The host's PlanOutputs for ``kind`` with each parameter filled in, and the attributes it reads."""
    used: set[int] = set()
    lists: set[int] = set()

    def param(name: str, key: str, norm: bool = True, fixed: str = "") -> str:
        expr, j = moveattrs.param_expr(name, [r.params[key] for r in reads], scalars,
                                       ranks if norm else [None] * len(reads), fixed)
        if j is not None:
            used.add(j)
        return expr

    subs: dict[str, str] = {}
    if kind in ("permute", "flip"):
        subs["dims"] = param("dimensions", "dims")
    elif kind == "cat":
        subs["dim"] = param("dimension", "dim")
    elif kind == "pad":
        subs["pad"] = param("padding", "pad", norm=False)
        subs["mode"] = param("mode", "mode", norm=False)
        const = [k for k, r in enumerate(reads) if r.params["mode"] == "constant"]   # the fill of the constant mode
        expr, j = moveattrs.param_expr("fill value", [reads[k].params["value"] for k in const] or [0.0],
                         [scalars[k] for k in const] or [scalars[0]], [None] * max(len(const), 1), "")
        subs["value"] = expr
        if j is not None:
            used.add(j)
    elif kind == "repeat":
        subs["reps"] = param("repeats", "reps", norm=False)
    elif kind == "roll":
        subs["shifts"] = param("shifts", "shifts", norm=False)
        subs["dims"] = param("dimensions", "dims")
    elif kind == "expand":
        subs["sizes"] = param("sizes", "sizes", norm=False)
    elif kind == "interleave":
        subs["repeats"] = param("repeats", "repeats", norm=False)
        subs["dim"] = param("dimension", "dim")
        subs["flatten"] = "true" if reads[0].params["flatten"] else "false"
    elif kind == "split":
        subs["dim"] = param("dimension", "dim")
        subs["sizes_code"], j = moveattrs.split_sizes(reads, scalars)
        if j is not None and j < 0:    # read as a list whatever the case gives
            lists.add(-1 - j)
            j = -1 - j
        if j is not None:
            used.add(j)
        subs["outputs_check"] = "" if dynamic_out else (
            f"    if (sizes.size() != {reads[0].outputs}u) return Failed(\"split: the sizes give another number of outputs "
            f"than the op declares\");\n")
    subs["context"] = "context" if used else ""
    return load(f"move_plan_{kind}.tmpl").substitute(subs), used, lists


def _input_names(mod: Any, r: Read) -> list[str]:
    """The op's input names: the forward's tensor parameters (one for a list of tensors)."""
    try:
        params = [p for p in inspect.signature(mod.Model.forward).parameters][1:]
    except (TypeError, ValueError):
        params = []
    count = 1 if r.list_input else len(r.dtypes)
    names = [p for p in params][:count] if len(params) >= count else [f"x{k}" for k in range(count)]
    return [n if n not in ("t", "tiling", "workspace", "y") else f"{n}In" for n in names]


def render(kp: KernelParams) -> dict[str, str]:
    e = kp.extra
    snake = snake_case(kp.op_type)
    src = kp.inputs[0]
    ins = [p.name for p in kp.inputs]
    outs = [p.name for p in kp.outputs]
    if e["list_input"]:
        bind = (f"        ListTensorDesc {ins[0]}List(reinterpret_cast<__gm__ void*>({ins[0]}));\n"
                f"        for (int32_t s = 0; s < t->sources; ++s) srcGm_[s].SetGlobalBuffer({ins[0]}List.GetDataPtr<T>(s));")
        read = ("    for (uint32_t k = 0; const gert::Tensor* item = context->GetDynamicInputTensor(0, k); ++k) {\n"
                "        const gert::Shape& s = item->GetStorageShape();\n"
                "        src.emplace_back();\n"
                "        for (size_t i = 0; i < s.GetDimNum(); ++i) src.back().push_back(s.GetDim(i));\n"
                "    }\n"
                "    if (src.empty()) return Failed(\"an empty list of tensors\");")
    else:
        bind = "\n".join(f"        srcGm_[{s}].SetGlobalBuffer((__gm__ T*){ins[k]});" for s, k in enumerate(e["sources"]))
        read = (f"    for (uint32_t k : {{{', '.join(str(k) for k in e['sources'])}}}) {{   // the inputs read, in source order\n"
                "        const gert::Shape& s = context->GetInputShape(k)->GetStorageShape();\n"
                "        src.emplace_back();\n"
                "        for (size_t i = 0; i < s.GetDimNum(); ++i) src.back().push_back(s.GetDim(i));\n"
                "    }")
    if e.get("view") and e["view"][0] == "unsqueeze":
        read += (f"\n    for (std::vector<int64_t>& s : src)   // each input with a new dimension of 1 (a stack)\n"
                 f"        s.insert(s.begin() + (static_cast<int64_t>(s.size()) + {e['view'][1]} + 1), 1);")
    elif e.get("view"):
        shape = ", ".join(str(int(v)) for v in e["view"][1])
        read += (f"\n    int64_t elements = 1;   // the reference reshapes its input to [{shape}] first\n"
                 f"    for (int64_t d : src[0]) elements *= d;\n"
                 f"    src[0] = {{{shape}}};\n"
                 f"    for (int64_t d : src[0]) elements /= d;\n"
                 f"    if (elements != 1) return Failed(\"the input does not hold the elements of the reshape\");")
    if e["dynamic_out"]:
        bind_out = (f"        ListTensorDesc {outs[0]}List(reinterpret_cast<__gm__ void*>({outs[0]}));\n"
                    f"        for (int32_t k = 0; k < t->outputs; ++k) yGm_[k].SetGlobalBuffer({outs[0]}List.GetDataPtr<T>(k));")
    else:
        bind_out = "\n".join(f"        yGm_[{k}].SetGlobalBuffer((__gm__ T*){o});" for k, o in enumerate(outs))
    comment, *helpers = load("move_attrs.tmpl").template.strip("\n").split("\n\n")
    used_helpers = [h for h in helpers if f"{h.split('(')[0].split()[-1]}(context" in e["plan_code"]]
    helper_text = ("\n" + comment + "\n" + "\n\n".join(used_helpers) + "\n") if used_helpers else ""
    constants = (f"constexpr int32_t MAX_OUTPUTS = {MAX_OUTPUTS};   // the op's outputs\n"
                 f"constexpr int32_t MAX_SOURCES = {MAX_SOURCES};   // tensors read (a cat's inputs)\n"
                 f"constexpr int32_t MAX_RANK = {MAX_RANK};\n"
                 f"constexpr int32_t MAX_PIECES = {MAX_PIECES};   // pieces of all dimensions of all outputs\n"
                 f"constexpr int64_t CHUNK = {CHUNK};   // output elements per work unit: a strided read of CHUNK "
                 f"elements takes {CHUNK * 32 // 1024} KB of UB\n")
    args = [*ins, *outs]
    kernel = load("move_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", src_macro=src.name.upper(),
        wait_pipe=load("wait_pipe.tmpl").template.rstrip("\n"), constants=constants,
        init_params=", ".join(f"GM_ADDR {a}" for a in args), bind_sources=bind, bind_outputs=bind_out,
        kernel_name=snake, kernel_args=", ".join(f"GM_ADDR {a}" for a in args), init_args=", ".join(args))
    params = opdef_params(kp.inputs, kp.outputs)
    if e["list_input"]:
        params = params.replace(f'Input("{ins[0]}").ParamType(REQUIRED)', f'Input("{ins[0]}").ParamType(DYNAMIC)')
    if e["dynamic_out"]:
        params = params.replace(f'Output("{outs[0]}").ParamType(REQUIRED)', f'Output("{outs[0]}").ParamType(DYNAMIC)')
    params += ("\n" + "\n".join(e["attrs"])) if e["attrs"] else ""
    host = load("move_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, helpers=helper_text, plan_code=e["plan_code"].rstrip("\n"),
        read_sources=read, params=params)
    tiling = load("move_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H", constants=constants)
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}
