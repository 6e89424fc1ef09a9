"""Staged ops: a convolution or a matmul, then what its epilogue does not take (a pool, a norm, a softmax or a
reduction over channels, any chain of them), as one op whose kernel runs the stages one after another.

A fused "conv + X" reference is split after the convolution (read from ``torch.export``):

* stage 1 is the convolution alone, planned by the conv planner (``conv.plan_conv(prefix=True)``), or the matmul
  and its elementwise epilogue (``mmstage``); it writes its result, in the input's dtype as PyTorch's convolution
  does, to the op's workspace;
* the rest of the graph is a module of its own whose first input is that result (a ``GraphModule`` over the
  reference's ops after the convolution; the module's other tensors it reads become its inputs, tensors of one
  value stay constants), planned by the ordinary planners (any vector template) as stage 2; when none takes it
  whole, ``vsplit`` cuts it into several vector stages, each writing its result to the workspace too;
* the op's kernel runs stage 1, ``SyncAll()``, stage 2, and so on; the host's TilingFunc runs each stage's tiling
  against a view of the call (``StageContext``: the stage's inputs by their index in the op or the stage whose
  result they are, each intermediate's shape computed before the next stage's tiling) and lays the tiling structs
  out after a small header.

Each stage is the planner's own code, unchanged; only names and indices are mapped here.
"""
from __future__ import annotations

import copy
import dataclasses
import logging
import re
import types
from dataclasses import dataclass
from typing import Any, Callable

import torch
from torch import fx

from agent_graph.drafter import codegen
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.templates import load
from agent_graph.drafter.vsplit import (VectorPart, derived, forward_input, head_split, module_tensor, shape_code,
                                       stage_cases, vector_parts)
from agent_graph.drafter.ownplan import forward_arguments
from agent_graph.drafter.variants import _OPS, _OPTILING, _TILING_DEF, _chunks, _ENTRY, _files
from bench_bridge.api import drawn_at_random, module_tensor_items

_log = logging.getLogger(__name__)

CONV_TARGETS = {"conv1d", "conv2d", "conv3d", "convolution", "_convolution", "conv_transpose1d", "conv_transpose2d",
                "conv_transpose3d"}
MM_TARGETS = {"mm", "bmm", "addmm"}
FIRST_TARGETS = CONV_TARGETS | MM_TARGETS
"""The ops a first stage is built around: one convolution (conv planner) or one matmul (cube planner)."""
STAGE_TEMPLATES = {"flat", "row", "col", "batch_norm", "pool", "gather", "index", "resize", "resize_linear", "sort"}
"""Second-stage templates: vector kernels with one entry and no cube task type."""
INTER = "convOut"
STAGE_BYTES = 1024
"""Room for one stage's tiling struct in the op's tiling data (the header first, then stage 1, then stage 2)."""


class StageError(Exception):
    """The reference does not split into stages the templates take (the message says why)."""


@dataclass
class Split:
    """One case's split: the second stage's module and forward inputs, and where each of its inputs comes from."""

    module: fx.GraphModule
    inputs: list[Any]
    sources: list[tuple[str, Any]]     # per stage-2 input: ("inter", None) | ("input", k) | ("param", fqn)
    init: list[Any] | None = None      # the reference's init arguments (a split of the reference itself)
    floats: list[tuple[str, float]] | None = None   # the reference's forward floats (name, this case's value)
    rebuild: Callable[[list[float]], "Split"] | None = None   # this split for other values of those floats


def _target_name(n: fx.Node) -> str:
    t = n.target
    name = getattr(t, "__name__", str(t))
    return name.split(".")[0]


def split_after(model: torch.nn.Module, ins: list, last: str, init: list | None = None, first: bool = True) -> Split:
    """The ops after graph node ``last`` (the convolution or its epilogue's last op, in the core-ATen export the
    conv planner reads; with ``first`` False, any node of a stage's module) as a module of their own, its input 0
    that node's value."""
    gm = _export(model, ins).module()
    nodes = [n for n in gm.graph.nodes]
    if first and sum(1 for n in nodes if n.op == "call_function" and _target_name(n) in FIRST_TARGETS) != 1:
        raise StageError("several convolutions or matmuls in one reference (a staged op takes one)")
    conv = next((n for n in nodes if n.name == last), None)
    if conv is None:
        raise StageError(f"the graph has no node {last}")
    before = nodes[:nodes.index(conv)]
    drawn = drawn_at_random(model, init or [])
    live: set[fx.Node] = set()            # what the results depend on (not the module's state updates)
    todo = [n for n in nodes if n.op == "output"]
    while todo:
        n = todo.pop()
        if n not in live:
            live.add(n)
            todo += n.all_input_nodes
    after = [n for n in nodes[nodes.index(conv) + 1:] if n in live]
    user = [n for n in nodes if n.op == "placeholder"]
    g = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    sources: list[tuple[str, Any]] = [("inter", None)]
    values: list[Any] = []
    env[conv] = g.placeholder(INTER)
    outside: list[fx.Node] = []
    for n in after:
        for a in n.all_input_nodes:
            if a is not conv and a in before and a not in outside:
                outside.append(a)
    # an op before the cut that does not read the first stage's work (x.clone() of a forward input kept for a
    # residual) is computed again in the second stage, with what it reads
    root = next((n for n in before if n.op == "call_function" and _target_name(n) in FIRST_TARGETS), None) if first \
        else next((n for n in nodes if n.op == "placeholder"), None)
    again: list[fx.Node] = []
    for a in outside:        # grows while it is walked
        if a.op == "call_function" and _target_name(a) != "_guards_fn" and not _depends(a, root):
            again.append(a)
            outside += [b for b in a.all_input_nodes if b not in outside]
    for a in outside:
        if a in again:
            continue
        if a.op == "placeholder":
            env[a] = forward_input(g, a, user.index(a), ins, sources, values, StageError, " read after the convolution")
        elif a.op == "get_attr":
            env[a] = module_tensor(g, gm, a, drawn, sources, values, StageError)
        elif a.op == "call_module" or _target_name(a) in ("_guards_fn",):
            continue
        else:
            raise StageError(f"core op aten.{_target_name(a)} of the first stage also feeds the second")
    for n in nodes:
        if n in again:
            env[n] = g.node_copy(n, lambda x: env[x])
    for n in after:
        if n.op == "output":
            g.output(tuple(env[x] if isinstance(x, fx.Node) else x for x in n.args[0]) if isinstance(n.args[0], (tuple, list))
                     else env[n.args[0]])
            break
        if n.op == "call_module":
            continue
        env[n] = g.node_copy(n, lambda x: env[x])
    gm2 = fx.GraphModule(gm, g)
    gm2.graph.eliminate_dead_code()
    gm2.recompile()
    with torch.no_grad():
        inter = _conv_result(gm, conv, ins)
    return Split(gm2, [inter] + values, sources)


def _depends(node: fx.Node, root: fx.Node | None) -> bool:
    """Whether ``node`` reads ``root``'s value, directly or through other nodes."""
    seen, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n is root:
            return True
        if n not in seen:
            seen.add(n)
            todo += n.all_input_nodes
    return False


def _op_input(fqn: str, names: list[str]) -> int | None:
    """The op input a module tensor is (the conv planner names it after its path, the cube planner after
    torch.export's placeholder: ``p_`` a parameter, ``b_`` a buffer)."""
    flat = re.sub(r"\W", "_", fqn)
    return next((names.index(n) for n in (flat, f"p_{flat}", f"b_{flat}") if n in names), None)


def _conv_result(gm: fx.GraphModule, conv: fx.Node, ins: list) -> torch.Tensor:
    seen: dict[str, torch.Tensor] = {}

    class Capture(fx.Interpreter):
        def run_node(self, n: fx.Node) -> Any:
            out = super().run_node(n)
            if n.name == conv.name:
                seen["conv"] = out
            return out

    Capture(copy.deepcopy(gm)).run(*copy.deepcopy(ins))   # a copy: a batch norm in training mode updates its buffers
    return seen["conv"].detach().clone()


def stage_module(splits: list[Split]) -> Any:
    """A module namespace the planners read like a reference's: ``Model(k)`` is case k's second stage;
    ``Model(k, *floats)`` that stage cut from the reference run with those forward floats (``held_floats``: their
    places in the case's ``init`` and names, read as float attributes, in the forward's order)."""
    def Model(k: int, *floats: float) -> fx.GraphModule:       # noqa: N802 (the planners call mod.Model(*init))
        s = splits[k]
        if floats and s.rebuild is not None and list(floats) != [v for _, v in s.floats or []]:
            s = s.rebuild(list(floats))
        gm = copy.deepcopy(s.module)   # a fresh one each time: a batch norm in training mode updates its buffers
        gm.remake = Model              # (the canonical reader builds the stage again with its floats moved)
        return gm
    Model.forward = type(splits[0].module).forward   # variants read the forward's signature
    held = [(1 + j, name) for j, (name, _) in enumerate(splits[0].floats or [])]
    return types.SimpleNamespace(Model=Model, held_floats=held)


# ---- merging the stages' projects ---------------------------------------------------------------------------

@dataclass
class Part:
    """One stage of the merged op: its own project, where each of its kernel's inputs comes from (an op input's
    index; -j: stage j's result) and the C++ that appends its result's dims to ``dims`` (the last stage's
    result is the op's output: no shape)."""

    plan: Any
    inputs: list[int]
    shape: str = ""
    inter_float: bool = False    # its result is float32 (else the dtype of the op's input x)
    out: int | None = None       # the op output it writes (None: its result goes to the workspace)


def merge(task: Any, parts: list[Part], names: list[str], x_index: int, plan_type: Any,
          op_inputs: list[tuple[str, str, list[str]]], ys: list[Any] | None = None, floats: bool = False) -> Any:
    """The staged op's Plan. ``names``: the op's inputs in the harness's order; ``op_inputs``: (name, param type,
    dtypes) of each; ``x_index``: the op input whose dtype every intermediate result has (or float32); ``ys``: the
    op's outputs (default ``op_outputs(parts)``); ``floats``: every stage reads the forward's floats as the op's
    attributes, in order (vector stages of a reference that takes floats)."""
    first = parts[0].plan
    files = [_files(p.plan) for p in parts]
    snake, op = files[0][0], files[0][4]
    struct = f"{op}TilingData"
    for part in parts[1:]:
        if len(part.plan.params.outputs) != 1:
            raise StageError(f"the ops after {_what(first)} return several tensors")
    if all(p.out is None for p in parts):
        parts[-1].out = 0                  # one result: the last stage's
    ys = ys or op_outputs(parts)
    header = _tiling_header(op, snake, struct, [f[2] for f in files], [k for k, p in enumerate(parts, 1) if p.out is None])
    host = _host(op, struct, parts, [f[1] for f in files], x_index, op_inputs, ys, floats)
    kernel = _kernel(op, struct, parts, [f[3] for f in files], names, ys, names[x_index])
    out = {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": header, f"op_kernel/{snake}.cpp": kernel}
    return plan_type(task=task, op_type=op, category="fused", template="staged", params=first.params,
                     graphs=list(first.graphs), files=out, case_meta=first.case_meta)


def op_outputs(parts: list[Part]) -> list[Any]:
    """The op's outputs: each output stage's own, in the op's order, renamed apart where two stages named theirs
    alike (``y``, ``y1``)."""
    ys: list[Any] = []
    for part in sorted((p for p in parts if p.out is not None), key=lambda p: p.out):
        y = part.plan.params.outputs[0]
        name, k = y.name, 1
        while name in [o.name for o in ys]:
            name = f"{y.name}{k}"
            k += 1
        ys.append(dataclasses.replace(y, name=name))
    return ys


def _tiling_header(op: str, snake: str, struct: str, texts: list[str], inters: list[int]) -> str:
    defs = []
    for k, text in enumerate(texts, 1):
        m = _TILING_DEF.search(text)
        if not m or m.group(1) != struct:
            raise StageError("a stage's tiling header has another form")
        defs.append(f"// stage {k}\nBEGIN_TILING_DATA_DEF({struct}{k})\n{m.group(2)}END_TILING_DATA_DEF;\n")
    guard = f"{snake.upper()}_TILING_H"
    includes = ["#include \"register/tilingdata_base.h\""]
    for text in texts:   # a cube stage's TCubeTiling comes with tiling/tiling_api.h
        includes += [ln for ln in text.splitlines() if ln.startswith("#include") and ln not in includes]
    fields = [f"TILING_DATA_FIELD_DEF(uint32_t, stage{k}At);     // byte offset of stage {k}'s tiling struct\n"
              for k in range(1, len(texts) + 1)]
    fields += [f"TILING_DATA_FIELD_DEF(uint64_t, inter{k}At);     // byte offset of stage {k}'s result in the workspace\n"
               for k in inters]
    registers = "".join(f"REGISTER_TILING_DATA_CLASS({op}_{k}, {struct}{k})\n" for k in range(1, len(texts) + 1))
    return (f"// {op} tiling data (generated by the kgen offline drafter): a header saying where each stage's\n"
            f"// tiling and each intermediate result are, then one struct per stage.\n"
            f"#ifndef {guard}\n#define {guard}\n" + "\n".join(includes) + "\n\nnamespace optiling {\n"
            f"BEGIN_TILING_DATA_DEF({struct})\n" + "".join(fields) + "END_TILING_DATA_DEF;\n\n" + "\n".join(defs) +
            f"\nREGISTER_TILING_DATA_CLASS({op}, {struct})\n{registers}"
            "}  // namespace optiling\n#endif\n")


_CTX_FN = re.compile(r"static ([\w:]+) (\w+)\(gert::TilingContext\* context")
_FLOOR_DIV = ("// Python's floor division (b > 0): the shapes PyTorch derives for a pooling or a strided window\n"
              "static int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }\n")
_CONTEXT_NAMES = ("one", "two", "three", "four", "five", "six")


def _host(op, struct, parts, texts, x_index, op_inputs, ys, floats: bool = False) -> str:
    first = parts[0].plan
    includes = ["#include <cstdint>", "#include <cstring>"]
    bodies = []
    for k, (text, part) in enumerate(zip(texts, parts), 1):
        for ln in text.splitlines():
            if ln.startswith("#include") and ln not in includes:
                includes.append(ln)
        m = _OPTILING.search(text)
        if not m:
            raise StageError("a stage's host file has another form")
        body = re.sub(rf"\b{struct}\b", f"{struct}{k}", m.group(1))
        body = _CTX_FN.sub(r"template <typename Context>\nstatic \1 \2(Context* context", body)
        # a member template called through the (now dependent) context needs the template keyword
        body = body.replace("->GetAttrPointer<", "->template GetAttrPointer<")
        if k > 1 and not floats and _ATTR_USE.search(body):
            raise StageError(f"the ops after {_what(first)} read forward attributes")
        # a row shared by several cores meets them with SyncAll, which every core of the launch must reach: the
        # op's launch has the largest stage's core count, so a stage's rows stay one core's each
        body = body.replace("constexpr bool ROWS_SHAREABLE = true;", "constexpr bool ROWS_SHAREABLE = false;   "
                            "// a stage of a staged op: every core of the launch must reach a SyncAll")
        bodies.append(f"// stage {k}: {part.plan.params.summary}\nnamespace stage{k} {{\n{body}\n}}  // namespace stage{k}\n")
    opdef = _opdef(op, op_inputs, ys, texts[0])
    helpers = []
    if _is_mix(first) and "shape_helper" in first.params.extra:   # a convolution on the cube
        helpers.append(first.params.extra["shape_helper"])
        first_blocks, vector_blocks = "one.blockDim", "(parts[k]->blockDim + 1) / 2"
    elif _is_mix(first):
        ins1 = [p.name for p in first.params.inputs]
        a, b = first.params.extra["a"], first.params.extra["b"]
        helpers.append(load("stages_mm_shape.tmpl").substitute(
            a_index=ins1.index(a.name), b_index=ins1.index(b.name), trans_a=str(a.trans).lower(),
            trans_b=str(b.trans).lower()))
        # the op is a MIX launch (one cube core : two vector cores): the vector stages' cores in pairs
        first_blocks, vector_blocks = "one.blockDim", "(parts[k]->blockDim + 1) / 2"
    else:
        first_blocks, vector_blocks = "one.blockDim", "parts[k]->blockDim"
    if any("FloorDiv(" in p.shape for p in parts):
        helpers.append(_FLOOR_DIV)
    n = len(parts)
    ctx = [_CONTEXT_NAMES[k] for k in range(n)]
    run = []
    for k, part in enumerate(parts):
        out = f"{k}" if part.out is None else f"{-part.out - 1}"
        run.append(f"    // stage {k + 1}: {part.plan.params.summary}")
        run.append(f"    StageContext {ctx[k]}(context, STAGE{k + 1}_INPUTS, {len(part.inputs)}, inter, {out}, interTypes);")
        if part.out is None:
            run += ["    {   // its result's shape, before its tiling reads it",
                    f"        gert::Shape& dims = inter[{k}].MutableStorageShape();", part.shape.rstrip("\n"),
                    f"        inter[{k}].MutableOriginShape() = dims;", "    }"]
        run.append(f"    if (stage{k + 1}::{op}Tiling(&{ctx[k]}) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;")
    maps = "\n".join(f"constexpr int32_t STAGE{k}_INPUTS[{len(p.inputs)}] = {{{', '.join(map(str, p.inputs))}}};"
                     + ("   // -j: stage j's result" if k > 1 else "") for k, p in enumerate(parts, 1))
    sets = [f"    header.set_stage{k}At({k} * STAGE_BYTES);" for k in range(1, n + 1)]
    sets += [f"    header.set_inter{k}At(interAt[{k - 1}]);" for k, p in enumerate(parts, 1) if p.out is None]
    types = ", ".join("ge::DT_FLOAT" if p.inter_float else "xType" for p in parts)
    kept = ", ".join("true" if p.out is None else "false" for p in parts)
    return load("stages_host.tmpl").substitute(
        inter_types=types, inter_kept=kept, op_type=op, includes="\n".join(includes), stages="\n".join(bodies), stage_bytes=STAGE_BYTES, count=n,
        summaries="\n".join(f"//   stage {k}: {p.plan.params.summary}" for k, p in enumerate(parts, 1)),
        input_maps=maps, x_index=x_index, opdef=opdef, shape_helper="\n".join(helpers), run_stages="\n".join(run),
        contexts=", ".join(f"&{c}" for c in ctx), header_sets="\n".join(sets), first_blocks=first_blocks,
        vector_blocks=vector_blocks)


def _is_mix(first: Any) -> bool:
    """Whether the first stage is a MIX kernel (a matmul or a convolution on the cube unit)."""
    return first.template in ("cube", "conv_igemm")


def _what(first: Any) -> str:
    if first.template in STAGE_TEMPLATES:
        return "the first stage"
    return "the matmul" if _is_mix(first) else "the convolution"


_ATTR_USE = re.compile(r"GetAttrs\(\)")


def _opdef(op: str, op_inputs: list[tuple[str, str, list[str]]], ys: list[Any], conv_host: str) -> str:
    o = _OPS.search(conv_host)
    head = re.search(r"(class \w+ : public OpDef \{.*?\{\n)", o.group(1), re.S) if o else None
    tail = re.search(r"(\s*this->AICore\(\)\.SetTiling.*)", o.group(1), re.S) if o else None
    if not head or not tail:
        raise StageError("the convolution's OpDef has another form")
    lines = [head.group(1).rstrip("\n")]
    width = len(op_inputs[0][2])
    if any(len(y.dtypes) != width for y in ys):
        raise StageError("the stages' dtype combinations differ")
    fmts = ", ".join(["ge::FORMAT_ND"] * width)
    for name, ptype, dts in op_inputs:
        lines.append(f'        this->Input("{name}").ParamType({ptype}).DataType({{{", ".join(codegen.GE[d] for d in dts)}}})'
                     f".Format({{{fmts}}});")
    for y in ys:
        lines.append(f'        this->Output("{y.name}").ParamType(REQUIRED).DataType({{{", ".join(codegen.GE[d] for d in y.dtypes)}}})'
                     f".Format({{{fmts}}});")
    return "namespace ops {\n" + "\n".join(lines) + tail.group(1).rstrip() + "\n}  // namespace ops\n"


_DTYPE_MACRO = re.compile(r"\b(ORIG_)?DTYPE_(\w+)\b")


def _dtype_of(m: re.Match, macro: dict[str, str]) -> str:
    """A stage kernel's dtype macro as the op's: the macro of the op tensor it names, or ``float``."""
    to = macro.get(m.group(2), f"DTYPE_{m.group(2)}")
    return to if to == "float" else f"{m.group(1) or ''}{to}"


def _kernel(op, struct, parts, texts, names, ys, x) -> str:
    first = parts[0].plan
    includes, chunks, entries, task_types = [], [], [], []
    n = len(parts)
    for k, (text, part) in enumerate(zip(texts, parts), 1):
        at = text.index("using namespace AscendC;") + len("using namespace AscendC;")
        for ln in text[:at].splitlines():
            if ln.startswith("#include") and ln not in includes:
                includes.append(ln)
        m = _ENTRY.search(text)
        if not m:
            raise StageError(f"stage {k}'s kernel has another form")
        entries.append(m)
        body = re.sub(r"GET_TILING_DATA\((\w+),\s*(\w+)\)", rf"GET_TILING_DATA_WITH_STRUCT({struct}{k}, \1, \2)", m.group(3))
        task = re.search(r"\n\s*(KERNEL_TASK_TYPE_DEFAULT\(\w+\);)", body)
        if task:   # the launch's core types are the entry's to declare
            task_types.append(task.group(1))
            body = body.replace(task.group(0), "")
        own = re.sub(rf"\b{struct}\b", f"{struct}{k}", "\n\n".join(_chunks(text[at:m.start()])))
        # each stage's kernel names its tensors its own way: its dtype macros name the op's tensors (an
        # intermediate result has the dtype of the op's input x)
        ins = [p.name for p in part.plan.params.inputs]
        def inter(j: int) -> str:   # stage j's result: float32, or x's dtype
            return "float" if parts[j - 1].inter_float else f"DTYPE_{codegen._macro(x)}"
        macro = {codegen._macro(a): inter(-src) if src < 0 else f"DTYPE_{codegen._macro(names[src])}"
                 for a, src in zip(ins, part.inputs)}
        own_out = codegen._macro(part.plan.params.outputs[0].name)
        macro[own_out] = inter(k) if part.out is None else f"DTYPE_{codegen._macro(ys[part.out].name)}"
        if k > 1 and _is_mix(first):   # GetBlockNum() of a MIX launch counts cube cores; each has GetTaskRation()
            own, body = (t.replace("GetBlockNum()", "(GetBlockNum() * GetTaskRation())") for t in (own, body))
        own, body = (_DTYPE_MACRO.sub(lambda mm: _dtype_of(mm, macro), t) for t in (own, body))
        chunks += [f"namespace stage{k} {{", "", own, "",
                   f"__aicore__ inline void Run({m.group(2)})", "{" + body.rstrip() + "\n}", "", f"}}  // namespace stage{k}", ""]
    calls = []
    for k, (m, part) in enumerate(zip(entries, parts), 1):
        args = [a.strip().split()[-1] for a in m.group(2).split(",")]
        result = f"inter{k}" if part.out is None else ys[part.out].name
        if k == 1 and parts[0].plan.template not in STAGE_TEMPLATES:   # a convolution or matmul: the op's names
            y1 = part.plan.params.outputs[0].name
            ins = [result if a == y1 else a for a in args[:-2]]
        else:
            ins = [f"inter{-src}" if src < 0 else names[src] for src in part.inputs] + [result]
        calls.append(", ".join(ins + ["workspace", f"tiling + stages.stage{k}At"]))
    inters = "\n".join(f"    GM_ADDR inter{k} = workspace + stages.inter{k}At;   // stage {k}'s result"
                       for k, p in enumerate(parts, 1) if p.out is None)
    later = "\n".join(f"    SyncAll();\n    stage{k}::Run({calls[k - 1]});" for k in range(2, n + 1))
    sig = ", ".join(f"GM_ADDR {a}" for a in (*names, *(o.name for o in ys))) + ", GM_ADDR workspace, GM_ADDR tiling"
    return load("stages_kernel.tmpl").substitute(
        op_type=op, includes="\n".join(includes), stages="\n".join(chunks), count=n,
        summaries="\n".join(f"//   stage {k}: {p.plan.params.summary}: "
                             + ("its result to the workspace" if p.out is None else f"the op's output {ys[p.out].name}")
                             for k, p in enumerate(parts, 1)),
        task_type="".join(f"\n    {tt}" for tt in task_types[:1]), what=_what(first),
        aic_return=("\n    if ASCEND_IS_AIC {\n        return;   // the cube cores' part ends with the matmul\n    }"
                    if _is_mix(first) else ""),
        name=entries[0].group(1), sig=sig, call1=calls[0], inters=inters, later=later)


def plan_staged(task: Any, cases: list, mod: Any, op_type: str, plan_type: Any, unsupported_type: Any,
                plan_cases: Callable[[Any, list, Any], Any], conv_planner: Callable[..., Any]) -> Any:
    """The staged op's Plan, an Unsupported naming why not, or None when the reference does not split.
    ``conv_planner``: the first stage's planner (the conv planner, or ``mmstage.plan_first_stage``), called with
    ``prefix`` True (the longest epilogue it takes) or 0 (the convolution or matmul alone)."""
    first = splits = None
    for prefix in (True, 0):   # the longest epilogue the first stage takes, else its op alone
        first = conv_planner(task, cases, mod, op_type, plan_type, unsupported_type, prefix=prefix)
        if first is None or not isinstance(first, plan_type):
            return first
        last = first.params.extra["last"] if "last" in first.params.extra else first.params.extra["conv"].last
        try:
            splits = [split_after(mod.Model(*copy.deepcopy(init)), ins, last, init) for init, ins in cases]
            break
        except StageError as e:
            if prefix == 0:
                return unsupported_type(task.name, f"{_what(first)[4:]} followed by other ops: {e}",
                                        op=_what(first)[4:], category="fused")
        except Exception:
            return None
    mod2 = stage_module(splits)
    cases2 = [([k], s.inputs) for k, s in enumerate(splits)]
    second = plan_cases(task, cases2, mod2)
    vector = None
    if isinstance(second, plan_type) and second.template in STAGE_TEMPLATES:
        vector = [VectorPart(second, splits, [("prev", 1) if k == "inter" else (k, r) for k, r in splits[0].sources])]
    else:   # the rest in several vector stages
        vector = vector_parts(task, splits, plan_cases, plan_type, STAGE_TEMPLATES, split_after, stage_module, StageError)
        if vector is not None:
            vector = [VectorPart(p.plan, p.splits, [_down(s, splits[0].sources, k) for s in p.sources], p.shape,
                                 p.result_float)
                      for k, p in enumerate(vector)]
    if vector is None:
        if not isinstance(second, plan_type):
            return unsupported_type(task.name, f"after {_what(first)}: {second.reason}", op=second.op, category="fused")
        return unsupported_type(task.name, f"after {_what(first)}, template '{second.template}' does not take a "
                                           "staged op yet", category="fused")
    try:
        return _assemble(task, first, vector, cases, plan_type)
    except StageError as e:
        return unsupported_type(task.name, f"{_what(first)[4:]} followed by other ops: {e}", op=_what(first)[4:],
                                category="fused")


def _down(source: tuple[str, Any], first_sources: list[tuple[str, Any]], k: int) -> tuple[str, Any]:
    """Vector stage ``k``'s source ("input", j) of the module after the first stage, as the first split's source
    (its input 0 is the first stage's result, k + 1 stages before vector stage k)."""
    if source[0] != "input":
        return source
    up = first_sources[source[1]]
    return ("prev", k + 1) if up[0] == "inter" else up


def _assemble(task, first, vector, cases, plan_type):
    """The op's inputs (the first stage's), each stage's inputs among them, and the merge."""
    ops = [(p.name, p.dtypes) for p in first.params.inputs]
    names = [n for n, _ in ops]
    width = len(ops[0][1])
    op_inputs = [(n, "REQUIRED", list(d)) for n, d in ops]
    if any(len(d) != width for _, d in ops):
        raise StageError("the stages' dtype combinations differ")
    if _is_mix(first):
        shape = first.params.extra.get("shape_call", "        if (!MatmulShape(context, dims)) return ge::GRAPH_FAILED;")
    else:
        shape = load("stages_conv_shape.tmpl").template
    parts = [Part(first, [names.index(p.name) for p in first.params.inputs], shape)]
    for k, vp in enumerate(vector):     # vector stage k is stage k + 2
        index = _stage_inputs(vp, k + 2, names, f"is read only after {_what(first)} (not covered yet)")
        parts.append(Part(vp.plan, index, shape_code(vp.shape, _CONTEXT_NAMES[k + 1]) if vp.shape else "",
                          vp.result_float))
    return merge(task, parts, names, names.index(first.params.extra["x"]), plan_type, op_inputs)


def _output_groups(task: Any, splits: list[Split], gm: fx.GraphModule, plan_cases: Callable[[Any, list, Any], Any],
                   plan_type: Any) -> list[list[VectorPart]] | None:
    """A reference of several results that no template computes together (an RMS norm's gradient: dx per row,
    dgamma summed over the rows): each result's ops as a module of their own (``head_split`` at that result),
    planned whole or in vector stages; one group of stages per result, the last one writing it. None when the
    reference has one result, or a result is planned by nothing. ``gm``: case 0's export."""
    outs = _results(gm)
    if len(outs) < 2 or not all(isinstance(o, fx.Node) and o.op == "call_function" for o in outs):
        return None
    x_dtypes = [s.inputs[0].dtype for s in splits]
    # each case's own result nodes: a float32 case has no casts where a float16 one converts (names differ)
    names = [[o.name for o in outs]] + [[o.name if isinstance(o, fx.Node) else "" for o in _results(_export(
        s.module, s.inputs).module())] for s in splits[1:]]
    if any(len(n) != len(outs) for n in names):
        return None
    groups = []
    for j in range(len(outs)):
        heads = [derived(s, lambda p, name=names[k][j]: head_split(p.module, p.inputs, name, Split, StageError,
                                                                  drawn_at_random(p.module, p.init or [])))
                 for k, s in enumerate(splits)]
        whole = plan_cases(task, stage_cases(heads), stage_module(heads))
        if isinstance(whole, plan_type) and whole.template in STAGE_TEMPLATES and len(whole.params.outputs) == 1:
            groups.append([VectorPart(whole, heads, list(heads[0].sources))])
            continue
        group = vector_parts(task, heads, plan_cases, plan_type, STAGE_TEMPLATES, split_after, stage_module,
                             StageError, x_dtypes=x_dtypes)
        if group is None:
            return None
        for part in group:       # its sources as the reference's (the result's module reads some of its inputs)
            part.sources = [heads[0].sources[s[1]] if s[0] == "input" else s for s in part.sources]
        groups.append(group)
    return groups


def _results(gm: fx.GraphModule) -> list[Any]:
    """The nodes an exported module returns, in order."""
    out = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _stage_inputs(vp: VectorPart, stage: int, names: list[str], missing: str) -> list[int]:
    """Where vector stage ``stage``'s inputs come from: ``-j`` for stage j's result, else the op input's index
    (the op's forward tensors first, in order, then module tensors by name); ``missing`` ends the error for a
    module tensor the op does not take."""
    if len(vp.plan.params.inputs) != len(vp.sources):
        raise StageError("a vector stage's kernel takes other inputs than its module's tensors")
    index = []
    for kind, ref in vp.sources:
        if kind == "prev":
            index.append(-(stage - ref))
        elif kind == "input":
            index.append(ref)
        elif _op_input(ref, names) is not None:
            index.append(_op_input(ref, names))
        else:
            raise StageError(f"the module tensor {ref} {missing}")
    return index


# ---- a reference of vector ops only, in stages ---------------------------------------------------------------

def _with_floats(mod: Any, init: list, ins: list, names: list[str]) -> Split:
    """Case (``init``, ``ins``) as the split every stage is cut from. Its forward floats (DeepNormGrad's ``alpha``)
    are constants of the export: the split carries them and a rebuild for other values, so each stage's planner
    reads the numbers that follow them as float attributes, the op's, in the forward's order."""
    places = [k for k, v in enumerate(ins) if isinstance(v, float)]

    def make(values: list[float]) -> Split:
        moved = list(ins)
        for k, v in zip(places, values):
            moved[k] = v
        split = Split(mod.Model(*copy.deepcopy(init)), moved, [("input", k) for k in range(len(moved))], list(init))
        if places:
            split.floats = [(names[j] if j < len(names) else f"arg{k}", moved[k]) for j, k in enumerate(places)]
            split.rebuild = make
        return split
    return make([ins[k] for k in places])


def plan_vector_staged(task: Any, cases: list, mod: Any, plan_type: Any, plan_cases: Callable[[Any, list, Any], Any],
                       make_params: Callable[..., Any], make_meta: Callable[[list], list]) -> Any:
    """A reference of vector ops no template takes whole (a group norm then its per-channel affine, a pool then a
    reduction over channels), cut into vector stages like the rest after a convolution; None when no cut helps.
    ``make_params(op_type, op_inputs, ys, summary)``: the op's KernelParams; ``make_meta(cases)``: its case metadata."""
    splits = []
    names_of = [n for n, _ in forward_arguments(mod, cases[0][1])]     # the floats' names, in order
    for init, ins in cases:
        if not ins or any(not isinstance(v, (torch.Tensor, float)) or isinstance(v, bool) for v in ins) or \
                not isinstance(ins[0], torch.Tensor):
            return None      # numbers other than floats (modes, counts) are the whole reference's
        splits.append(_with_floats(mod, init, list(ins), names_of))
    try:
        ep = _export(splits[0].module, splits[0].inputs)
        groups = _output_groups(task, splits, ep.module(), plan_cases, plan_type)
        if groups is None:
            vector = vector_parts(task, splits, plan_cases, plan_type, STAGE_TEMPLATES, split_after, stage_module,
                                  StageError)
            groups = [vector] if vector is not None else None
    except Exception as e:     # (torch.export of a cut may fail in many ways): the whole reference's refusal stands
        _log.debug("no vector stages for %s: %s: %s", task.name, type(e).__name__, e)
        return None
    if groups is None:
        return None
    vector = [vp for group in groups for vp in group]
    tensor_at = {k: j for j, k in enumerate(k for k, v in enumerate(cases[0][1]) if isinstance(v, torch.Tensor))}
    for vp in vector:     # ("input", k): the forward's argument k; the op's inputs are its tensors only
        vp.sources = [("input", tensor_at[ref]) if kind == "input" else (kind, ref) for kind, ref in vp.sources]
    outs = [len(group) - 1 for group in groups]       # each group's last stage writes an op output
    forward = [n.name for n in ep.graph.nodes if n.op == "placeholder" and n.name in ep.graph_signature.user_inputs]
    items = module_tensor_items(splits[0].module, cases[0][0])
    names = forward + [re.sub(r"\W", "_", fqn) for fqn, _ in items]
    combos: list[list[str]] = []
    results: list[list[str]] = []      # each combination's result dtypes
    for init, ins in cases:
        model = mod.Model(*copy.deepcopy(init))
        combo = [str(v.dtype).replace("torch.", "") for v in ins if isinstance(v, torch.Tensor)]
        combo += [str(t.dtype).replace("torch.", "") for _, t in module_tensor_items(model, init)]
        if combo not in combos:
            combos.append(combo)
            with torch.no_grad():
                out = model(*copy.deepcopy(ins))
            out = list(out) if isinstance(out, (tuple, list)) else [out]
            results.append([str(o.dtype).replace("torch.", "") for o in out])
    try:
        parts = []
        for j, group in enumerate(groups):
            for i, vp in enumerate(group):
                k = len(parts)              # vector stage k is stage k + 1
                index = _stage_inputs(vp, k + 1, names, "is not one the harness passes")
                parts.append(Part(vp.plan, index, shape_code(vp.shape, _CONTEXT_NAMES[k]) if vp.shape else "",
                                  vp.result_float, out=j if i == outs[j] else None))
        op_inputs = [(n, "REQUIRED", [c[i] for c in combos]) for i, n in enumerate(names)]
        ys = op_outputs(parts)
        if len(groups) > 1:      # a result's stages saw the dtypes of what they read only: the op's, per combination
            for j, y in enumerate(ys):
                y.dtypes = [r[j] for r in results]
        if any(len(y.dtypes) != len(combos) for y in ys):
            raise StageError("the stages' dtype combinations differ")
        first = vector[0].plan
        params = make_params(first.op_type, op_inputs, ys, " | ".join(p.plan.params.summary for p in parts))
        plan = merge(task, parts, names, 0, plan_type, op_inputs, ys, floats=bool(splits[0].floats))
    except StageError:
        return None
    plan.params = params
    plan.graphs = list(first.graphs)
    plan.case_meta = make_meta(cases)
    return plan
