"""Staged ops: a convolution, then what its epilogue does not take (a pool, a norm, a softmax or a reduction over
channels, any chain of them), as one op whose kernel runs two stages.

A fused "conv + X" reference is split after the convolution (read from ``torch.export``):

* stage 1 is the convolution alone, planned by the conv planner (``conv.plan_conv(prefix=True)``); it writes its
  result, in the input's dtype as PyTorch's convolution does, to the op's workspace;
* stage 2 is the rest of the graph as a module of its own whose first input is that result (a ``GraphModule``
  over the reference's ops after the convolution; the module's other tensors it reads become its inputs, tensors
  of one value stay constants), planned by the ordinary planners (any vector template);
* the op's kernel runs stage 1, ``SyncAll()``, then stage 2; the host's TilingFunc runs each stage's tiling
  against a view of the call (``StageContext``: the stage's inputs by their index in the op, the intermediate's
  shape computed from the convolution's sizes) and lays the two tiling structs out after a small header.

Each stage is the planner's own code, unchanged; only names and indices are mapped here.
"""
from __future__ import annotations

import copy
import re
import types
from dataclasses import dataclass
from typing import Any, Callable

import torch
from torch import fx

from agent_graph.drafter import codegen
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.templates import load
from agent_graph.drafter.variants import _OPS, _OPTILING, _TILING_DEF, _chunks, _ENTRY, _IO, _files
from bench_bridge.api import drawn_at_random, snake_case

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


def _target_name(n: fx.Node) -> str:
    t = n.target
    name = getattr(t, "__name__", str(t))
    return name.split(".")[0]


def split_after(model: torch.nn.Module, ins: list, last: str, init: list | None = None) -> Split:
    """The ops after graph node ``last`` (the convolution or its epilogue's last op, in the core-ATen export the
    conv planner reads) as a module of their own, its input 0 that node's value."""
    gm = _export(model, ins).module()
    nodes = [n for n in gm.graph.nodes]
    if sum(1 for n in nodes if n.op == "call_function" and _target_name(n) in FIRST_TARGETS) != 1:
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
    for a in outside:
        if a.op == "placeholder":
            k = user.index(a)
            if not isinstance(ins[k], torch.Tensor):
                raise StageError(f"forward argument {a.name} is read after the convolution and is not a tensor")
            env[a] = g.placeholder(a.name)
            sources.append(("input", k))
            values.append(ins[k])
        elif a.op == "get_attr":
            t = _attr(gm, a.target)
            flat = t.detach().reshape(-1) if isinstance(t, torch.Tensor) else None
            if flat is not None and flat.numel() and t.is_floating_point() and bool((flat == flat[0]).all()) and \
                    a.target not in drawn:
                env[a] = g.get_attr(a.target)     # one value throughout: stays the module's constant
            elif isinstance(t, torch.Tensor):
                env[a] = g.placeholder(re.sub(r"\W", "_", a.target))
                sources.append(("param", a.target))
                values.append(t.detach().clone())
            else:
                raise StageError(f"the module attribute {a.target} read after the convolution is not a tensor")
        elif a.op == "call_module" or _target_name(a) in ("_guards_fn",):
            continue
        else:
            raise StageError(f"core op aten.{_target_name(a)} of the first stage also feeds the second")
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


def _op_input(fqn: str, names: list[str]) -> int | None:
    """The op input a module tensor is (the conv planner names it after its path, the cube planner after
    torch.export's placeholder: ``p_`` a parameter, ``b_`` a buffer)."""
    flat = re.sub(r"\W", "_", fqn)
    return next((names.index(n) for n in (flat, f"p_{flat}", f"b_{flat}") if n in names), None)


def _attr(gm: torch.nn.Module, target: str) -> Any:
    v: Any = gm
    for part in target.split("."):
        v = getattr(v, part)
    return v


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
    """A module namespace the planners read like a reference's: ``Model(k)`` is case k's second stage."""
    def Model(k: int) -> fx.GraphModule:       # noqa: N802 (the planners call mod.Model(*init))
        return copy.deepcopy(splits[k].module)   # a fresh one each time: a batch norm in training mode updates its buffers
    Model.forward = type(splits[0].module).forward   # variants read the forward's signature
    return types.SimpleNamespace(Model=Model)


# ---- merging the two stages' projects -----------------------------------------------------------------------

def merge(task: Any, conv_plan: Any, tail_plan: Any, split: Split, names: list[str], conv_x: str, plan_type: Any,
          op_inputs: list[tuple[str, str, list[str]]]) -> Any:
    """The staged op's Plan. ``names``: the op's inputs in the harness's order; ``op_inputs``: (name, param type,
    dtypes) of each; ``split``: case 0's split (where each second-stage input comes from)."""
    snake, host1, tiling1, kernel1, op = _files(conv_plan)
    _, host2, tiling2, kernel2, _ = _files(tail_plan)
    if _is_mix(conv_plan):   # GetBlockNum() of a MIX launch counts cube cores; each has GetTaskRation() vector cores
        kernel2 = kernel2.replace("GetBlockNum()", "(GetBlockNum() * GetTaskRation())")
    struct = f"{op}TilingData"
    ins1 = [p.name for p in conv_plan.params.inputs]
    ins2 = [p.name for p in tail_plan.params.inputs]
    map1 = [names.index(n) for n in ins1]
    if len(ins2) != len(split.sources):
        raise StageError("the second stage's kernel takes other inputs than its module's tensors")
    map2 = []   # the second stage's inputs are its module's forward tensors, in order (the harness's order)
    for kind, ref in split.sources:
        if kind == "inter":
            map2.append(-1)
        elif kind == "input":
            map2.append(ref)                    # the op's forward tensors come first, in order
        elif _op_input(ref, names) is not None:
            map2.append(_op_input(ref, names))
        else:
            raise StageError(f"the module tensor {ref} is not one of the op's inputs")
    if len(tail_plan.params.outputs) != 1:
        raise StageError("the ops after the convolution return several tensors")
    y = tail_plan.params.outputs[0]
    header = _tiling_header(op, snake, struct, [tiling1, tiling2])
    host = _host(op, struct, [host1, host2], [map1, map2], names.index(conv_x), op_inputs, y, conv_plan, tail_plan)
    kernel = _kernel(op, struct, [kernel1, kernel2], ins2, map2, names, y.name, conv_plan, tail_plan)
    files = {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": header, f"op_kernel/{snake}.cpp": kernel}
    return plan_type(task=task, op_type=op, category="fused", template="staged", params=conv_plan.params,
                     graphs=list(conv_plan.graphs), files=files, case_meta=conv_plan.case_meta)


def _tiling_header(op: str, snake: str, struct: str, texts: list[str]) -> str:
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
    return (f"// {op} tiling data (generated by the kgen offline drafter): a header saying where each stage's\n"
            f"// tiling and the first stage's result are, then one struct per stage.\n"
            f"#ifndef {guard}\n#define {guard}\n" + "\n".join(includes) + "\n\nnamespace optiling {\n"
            f"BEGIN_TILING_DATA_DEF({struct})\n"
            "TILING_DATA_FIELD_DEF(uint32_t, stage1At);     // byte offset of stage 1's tiling struct\n"
            "TILING_DATA_FIELD_DEF(uint32_t, stage2At);     // byte offset of stage 2's tiling struct\n"
            "TILING_DATA_FIELD_DEF(uint64_t, interAt);      // byte offset of the first stage's result in the workspace\n"
            "END_TILING_DATA_DEF;\n\n" + "\n".join(defs) + "\n"
            f"REGISTER_TILING_DATA_CLASS({op}, {struct})\n"
            f"REGISTER_TILING_DATA_CLASS({op}_1, {struct}1)\nREGISTER_TILING_DATA_CLASS({op}_2, {struct}2)\n"
            "}  // namespace optiling\n#endif\n")


_CTX_FN = re.compile(r"static ([\w:]+) (\w+)\(gert::TilingContext\* context")


def _host(op, struct, texts, maps, x_index, op_inputs, y, conv_plan, tail_plan) -> str:
    includes = ["#include <cstdint>", "#include <cstring>"]
    bodies = []
    for k, text in enumerate(texts, 1):
        for ln in text.splitlines():
            if ln.startswith("#include") and ln not in includes:
                includes.append(ln)
        m = _OPTILING.search(text)
        if not m:
            raise StageError("a stage's host file has another form")
        body = re.sub(rf"\b{struct}\b", f"{struct}{k}", m.group(1))
        body = _CTX_FN.sub(r"template <typename Context>\nstatic \1 \2(Context* context", body)
        bodies.append(f"// stage {k}: {(conv_plan if k == 1 else tail_plan).params.summary}\n"
                      f"namespace stage{k} {{\n{body}\n}}  // namespace stage{k}\n")
    if _ATTR_USE.search(bodies[1]):
        raise StageError("the ops after the convolution read forward attributes")
    opdef = _opdef(op, op_inputs, y, texts[0])
    if _is_mix(conv_plan):
        ins1 = [p.name for p in conv_plan.params.inputs]
        a, b = conv_plan.params.extra["a"], conv_plan.params.extra["b"]
        helper = load("stages_mm_shape.tmpl").substitute(a_index=ins1.index(a.name), b_index=ins1.index(b.name),
                                                          trans_a=str(a.trans).lower(), trans_b=str(b.trans).lower())
        shape = ("    gert::StorageShape inter;   // [.., M, N]: the matmul's result\n"
                 "    gert::Shape& dims = inter.MutableStorageShape();\n"
                 "    if (!MatmulShape(context, dims)) return ge::GRAPH_FAILED;\n")
        # the op is a MIX launch (one cube core : two vector cores): stage 2's vector cores in pairs
        block_dim = "one.blockDim > (two.blockDim + 1) / 2 ? one.blockDim : (two.blockDim + 1) / 2"
    else:
        helper, shape = "", load("stages_conv_shape.tmpl").template
        block_dim = "one.blockDim > two.blockDim ? one.blockDim : two.blockDim"
    return load("stages_host.tmpl").substitute(
        op_type=op, struct=struct, includes="\n".join(includes), stages="\n".join(bodies), stage_bytes=STAGE_BYTES,
        map1=", ".join(map(str, maps[0])), n1=len(maps[0]), map2=", ".join(map(str, maps[1])), n2=len(maps[1]),
        x_index=x_index, opdef=opdef, summary1=conv_plan.params.summary, summary2=tail_plan.params.summary,
        shape_helper=helper, inter_shape=shape.rstrip("\n"), block_dim=block_dim, what=_what(conv_plan))


def _is_mix(first: Any) -> bool:
    """Whether the first stage is a MIX kernel (a matmul on the cube unit)."""
    return first.template == "cube"


def _what(first: Any) -> str:
    return "the matmul" if _is_mix(first) else "the convolution"


_ATTR_USE = re.compile(r"GetAttrs\(\)")


def _opdef(op: str, op_inputs: list[tuple[str, str, list[str]]], y: Any, conv_host: str) -> str:
    o = _OPS.search(conv_host)
    head = re.search(r"(class \w+ : public OpDef \{.*?\{\n)", o.group(1), re.S) if o else None
    tail = re.search(r"(\s*this->AICore\(\)\.SetTiling.*)", o.group(1), re.S) if o else None
    if not head or not tail:
        raise StageError("the convolution's OpDef has another form")
    lines = [head.group(1).rstrip("\n")]
    width = len(op_inputs[0][2])
    if len(y.dtypes) != width:
        raise StageError("the stages' dtype combinations differ")
    fmts = ", ".join(["ge::FORMAT_ND"] * width)
    for name, ptype, dts in op_inputs:
        lines.append(f'        this->Input("{name}").ParamType({ptype}).DataType({{{", ".join(codegen.GE[d] for d in dts)}}})'
                     f".Format({{{fmts}}});")
    lines.append(f'        this->Output("{y.name}").ParamType(REQUIRED).DataType({{{", ".join(codegen.GE[d] for d in y.dtypes)}}})'
                 f".Format({{{fmts}}});")
    return "namespace ops {\n" + "\n".join(lines) + tail.group(1).rstrip() + "\n}  // namespace ops\n"


def _kernel(op, struct, texts, ins2, map2, names, y, conv_plan, tail_plan) -> str:
    includes, parts = [], []
    entries, task_types = [], []
    for k, text in enumerate(texts, 1):
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
        parts += [f"namespace stage{k} {{", "", own, "",
                  f"__aicore__ inline void Run({m.group(2)})", "{" + body.rstrip() + "\n}", "", f"}}  // namespace stage{k}", ""]
    args1 = [a.strip().split()[-1] for a in entries[0].group(2).split(",")]
    args2 = [a.strip().split()[-1] for a in entries[1].group(2).split(",")]
    x = conv_plan.params.extra["x"]
    y1 = conv_plan.params.outputs[0].name
    call1 = ["inter" if n == y1 else n for n in args1[:-2]] + ["workspace", "tiling + stages.stage1At"]
    call2 = ["inter" if k < 0 else names[k] for k in map2] + [y, "workspace", "tiling + stages.stage2At"]
    # the second stage's kernel names its inputs its own way: its dtype macros name the op's tensors
    aliases = []
    for n2, k in zip(ins2, map2):
        m2, m = codegen._macro(n2), codegen._macro(x if k < 0 else names[k])
        if m2 != m:
            aliases += [f"#ifndef DTYPE_{m2}", f"#define DTYPE_{m2} DTYPE_{m}", f"#define ORIG_DTYPE_{m2} ORIG_DTYPE_{m}", "#endif"]
    sig = ", ".join(f"GM_ADDR {n}" for n in (*names, y)) + ", GM_ADDR workspace, GM_ADDR tiling"
    return load("stages_kernel.tmpl").substitute(
        op_type=op, includes="\n".join(includes), aliases="\n".join(aliases), stages="\n".join(parts),
        task_type="".join(f"\n    {tt}" for tt in task_types[:1]), what=_what(conv_plan),
        aic_return=("\n    if ASCEND_IS_AIC {\n        return;   // the cube cores' part ends with the matmul\n    }"
                    if _is_mix(conv_plan) else ""),
        name=entries[0].group(1), sig=sig, call1=", ".join(call1), call2=", ".join(call2),
        summary1=conv_plan.params.summary, summary2=tail_plan.params.summary)


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
    if not isinstance(second, plan_type):
        return unsupported_type(task.name, f"after {_what(first)}: {second.reason}", op=second.op, category="fused")
    if second.template not in STAGE_TEMPLATES:
        return unsupported_type(task.name, f"after {_what(first)}, template '{second.template}' does not take a "
                                           "staged op yet", category="fused")
    try:
        return _assemble(task, first, second, splits, cases, plan_type)
    except StageError as e:
        return unsupported_type(task.name, f"{_what(first)[4:]} followed by other ops: {e}", op=_what(first)[4:],
                                category="fused")


def _assemble(task, first, second, splits, cases, plan_type):
    """The op's inputs (the convolution's, then any module tensor only the second stage reads) and the merge."""
    ops = [(p.name, p.dtypes) for p in first.params.inputs]
    names = [n for n, _ in ops]
    width = len(ops[0][1])
    extra = [ref for kind, ref in splits[0].sources if kind == "param" and _op_input(ref, names) is None]
    if extra:
        raise StageError(f"the module tensor {extra[0]} is read only after {_what(first)} (not covered yet)")
    op_inputs = [(n, "REQUIRED", list(d)) for n, d in ops]
    if any(len(d) != width for _, d in ops):
        raise StageError("the stages' dtype combinations differ")
    return merge(task, first, second, splits[0], names, first.params.extra["x"], plan_type, op_inputs)
