"""Convolution planner of the offline drafter (template ``conv``): ``nn.Conv1d``/``nn.Conv2d`` and
``F.conv1d``/``F.conv2d`` (stride, padding, dilation, groups, bias or not) read through ``torch.export``
as ``aten.convolution.default``, followed by an optional elementwise epilogue on the output rows.

The op's inputs are what the harness passes, in its order: the forward tensors, the tensors given to
``__init__``, then the module's parameters (``nn.Conv2d``'s weight and bias, created in ``__init__``) when the
convolution reads one of them. The kernel is a direct convolution on the vector unit
(``templates/conv_kernel.cpp.tmpl``): one output row per work unit, one Gather + Axpy per kernel tap.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import torch
from torch import fx

from agent_graph.drafter import codegen, vecops
from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.canonical import _canonical, _export, _name, live_nodes
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.prune import prune
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import Task, module_tensor_items, snake_case

Source = Literal["input", "init", "param", "const"]
DTYPES = ("float32", "float16", "bfloat16")
SHAPE_OPS = {"view", "_unsafe_view", "reshape", "clone", "alias", "contiguous", "detach"}
# epilogue ops on the float accumulator of one output row (acc, length ow_): (drafter name, statement)
SIZES = {"channel": "cout", "one": "1", "full": "static_cast<uint64_t>(rows) * ow"}
UNARY_EPILOGUE = {"relu": "Relu(acc, acc, ow_);", "abs": "Abs(acc, acc, ow_);", "exp": "Exp(acc, acc, ow_);"}


@dataclass
class Operand:
    name: str
    source: Source
    index: int                 # position among the forward tensors / init tensors / module parameters
    shape: tuple[int, ...]
    dtype: str
    value: float | None = None   # a "const": a module tensor whose elements are all this value (the harness passes
                                 # no such tensor; the kernel writes the number)


@dataclass
class ConvSpec:
    stride: tuple[int, int, int]       # (D, H, W); 1 / 0 for the dimensions a 1-D or 2-D convolution lacks
    padding: tuple[int, int, int]
    dilation: tuple[int, int, int]
    x: str
    w: str
    b: str | None
    epilogue: list[str] = field(default_factory=list)   # AscendC statements on acc
    channel: list[tuple[str, str]] = field(default_factory=list)   # epilogue tensors: (name, channel | one | full)
    summary: str = ""
    transposed: bool = False
    output_padding: tuple[int, int, int] = (0, 0, 0)
    groups: int = 1                    # read by the host of a transposed convolution (its weight does not say)
    last: str = ""                     # the graph node whose value the op writes (the convolution or its epilogue's last)


@dataclass
class _Out:
    """The planner's result types (``planner.Plan``/``Unsupported``, passed in: the planner imports this module)."""

    op_type: str
    plan: Any
    unsupported: Any


def plan_conv(task: Task, cases: list, mod: Any, op_type: str, plan_type: Any, unsupported_type: Any,
              prefix: bool | int = False):
    """``plan_type`` | ``unsupported_type`` for a reference holding a convolution; None when its graph holds none
    (``cases``: (init, forward inputs) per shape case; ``op_type``: the op's CamelCase name; ``prefix``: the first
    stage of a staged op (``stages.py``): True, the convolution and the longest epilogue chain it takes; a number,
    that many of the ops after it; the result of the last is the op's output)."""
    out = _Out(op_type, plan_type, unsupported_type)
    specs, operands_per_case = [], []
    for init, ins in cases:
        model = mod.Model(*copy.deepcopy(init))
        try:
            ep = _export(model, ins)
        except AnalysisError:
            return None
        convs = [n for n in ep.graph.nodes if n.op == "call_function" and _name(n)[0] == "convolution"]
        if not convs:
            return None
        try:
            ops, spec = _read(ep, model, ins, init, prefix)
        except AnalysisError as e:
            return _refuse(out, task, str(e))
        except (KeyError, IndexError, TypeError, ValueError, StopIteration) as e:
            return _refuse(out, task, f"the convolution has a form the conv template does not take ({type(e).__name__}: {e})")
        specs.append(spec)
        operands_per_case.append(ops)
    if any(s != specs[0] for s in specs[1:]):
        return _refuse(out, task, "the shape cases trace to different convolutions (one kernel must serve every case)")
    faces = {tuple((o.name, o.source, o.index) for o in ops) for ops in operands_per_case}
    if len(faces) > 1:
        return _refuse(out, task, "the shape cases pass different tensors to the convolution")
    return _plan(out, task, specs[0], operands_per_case, cases)


def _refuse(out: _Out, task: Task, reason: str) -> Any:
    return out.unsupported(task.name, reason, op="convolution", category="convolution")


def _read(ep: torch.export.ExportedProgram, model: torch.nn.Module, ins: list, init: list, prefix: bool | int = False) -> tuple[list[Operand], ConvSpec]:
    sig = ep.graph_signature
    by_name = {s.arg.name: s for s in sig.input_specs if hasattr(s.arg, "name")}
    fwd = [t for t in ins if isinstance(t, torch.Tensor)]
    init_t = [t for t in init if isinstance(t, torch.Tensor)]
    params = module_tensor_items(model, init)   # the model's own weights, as the harness passes them
    src: dict[str, Operand] = {}       # placeholder name -> operand
    k_in = 0
    for n in ep.graph.nodes:
        if n.op != "placeholder":
            continue
        spec = by_name.get(n.name)
        if spec is None or spec.kind.name == "USER_INPUT":
            v = ins[k_in]
            k_in += 1
            if isinstance(v, torch.Tensor):
                k = next(i for i, t in enumerate(fwd) if t is v)
                src[n.name] = Operand(n.name, "input", k, tuple(v.shape), str(v.dtype).replace("torch.", ""))
            continue
        t = ep.state_dict.get(spec.target) if spec.target in ep.state_dict else ep.constants.get(spec.target)
        if not isinstance(t, torch.Tensor):
            continue
        dt = str(t.dtype).replace("torch.", "")
        k = next((i for i, c in enumerate(init_t) if c.shape == t.shape and c.dtype == t.dtype
                  and bool(torch.equal(c.detach(), t.detach()))), None)
        if k is not None:
            src[n.name] = Operand(f"init{k}", "init", k, tuple(t.shape), dt)
            continue
        k = next((i for i, (nm, _) in enumerate(params) if nm == spec.target), None)
        if k is None and not t.is_floating_point():
            continue           # an integer buffer (a batch norm's num_batches_tracked): not a convolution operand
        flat = t.detach().reshape(-1)
        if k is None and t.is_floating_point() and flat.numel() and bool((flat == flat[0]).all()):
            # a module tensor of one value throughout (a norm's ones, a scale filled with 0.5): the harness does
            # not pass it; the kernel writes the number
            src[n.name] = Operand(re.sub(r"\W", "_", spec.target), "const", -1, tuple(t.shape), dt, float(flat[0]))
            continue
        if k is None:
            raise AnalysisError(f"the convolution reads the module {spec.kind.name.lower()} '{spec.target}' of shape "
                                f"{list(t.shape)}, which is not a parameter (pass it as a forward input)")
        src[n.name] = Operand(re.sub(r"\W", "_", spec.target), "param", k, tuple(t.shape), dt)
    live = live_nodes(ep)        # not a batch norm's running-statistics update
    calls = [n for n in ep.graph.nodes if n.op == "call_function" and _name(n)[0] not in SHAPE_OPS
             and not _name(n)[0].startswith("_assert") and n.name in live]
    conv = calls[0]
    if _name(conv)[0] != "convolution":
        raise AnalysisError(f"core op aten.{_name(conv)[0]} before the convolution is not covered by the conv template")
    x, w, b, stride, padding, dilation, transposed, out_pad, groups = conv.args
    rank = len(w.meta["val"].shape)
    shape = list(x.meta["val"].shape)
    if rank not in (3, 4, 5):
        raise AnalysisError(f"a {rank - 2}-D convolution (input of shape {shape}) is not covered by the conv template "
                            "(1-D, 2-D and 3-D are)")
    for a, what in ((x, "input"), (w, "weight"), (b, "bias")):
        if a is not None and (not isinstance(a, fx.Node) or a.name not in src):
            raise AnalysisError(f"the convolution's {what} is computed by other ops (input of shape {shape}); "
                                "only tensors passed in or held by the module are covered")
    def triple(v: Any, fill: int) -> tuple[int, int, int]:   # (D, H, W), missing dimensions filled
        vals = [int(a) for a in v] if isinstance(v, (list, tuple)) else [int(v)]
        if len(vals) == 1:
            vals = vals * (rank - 2)
        return tuple([fill] * (3 - len(vals)) + vals)
    for n in (w,) + ((b,) if b is not None else ()):
        if src.get(n.name) is not None and src[n.name].source == "const":
            raise AnalysisError(f"the convolution's {'weight' if n is w else 'bias'} holds one value throughout "
                                "(not covered: pass it as a forward input)")
    rest = calls[1:]
    if prefix is True:     # the longest chain the epilogue takes; the ops after it are a second stage's
        take = 0
        while take < len(rest):
            try:
                _epilogue(conv, rest[:take + 1], shape, src)
            except AnalysisError:
                break
            take += 1
        rest = rest[:take]
    elif prefix is not False:
        rest = rest[:int(prefix)]
    stmts, ops, chan = _epilogue(conv, rest, shape, src)
    used = [src[x.name], src[w.name]] + ([src[b.name]] if b is not None else []) + [src[c] for c, _ in chan]
    if src[x.name].source == "const":
        raise AnalysisError(f"the convolution's input holds one value throughout (shape {shape}): not covered")
    for o in used:
        if o.dtype not in DTYPES:
            raise AnalysisError(f"dtype {o.dtype} of the convolution's {o.name} (shape {list(o.shape)}) is not covered")
    operands = _operands(src, used, fwd, init_t, params)
    kind = "conv_transpose" if transposed else "convolution"
    spec = ConvSpec(triple(stride, 1), triple(padding, 0), triple(dilation, 1), src[x.name].name, src[w.name].name,
                    src[b.name].name if b is not None else None, stmts, [(src[c].name, k) for c, k in chan],
                    f"ops: {kind}{rank - 2}d" + "".join(f" -> {o}" for o in ops), bool(transposed),
                    triple(out_pad, 0), int(groups) if transposed else 1, (rest[-1] if rest else conv).name)
    return operands, spec


def _epilogue(conv: fx.Node, rest: list[fx.Node], shape: list[int],
              src: dict[str, Operand]) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """AscendC statements for the elementwise chain after the convolution (each op reads the previous one), the
    op names, and the tensors it reads one value of per output channel (shape [C, 1, 1] / [C, 1]) or in all."""
    stmts, names, chan, prev = [], [], [], conv
    cout = int(conv.meta["val"].shape[1])
    for n in rest:
        base = _name(n)[0]
        args = list(n.args)
        if base in ("add", "mul", "sub") and len(args) == 2 and args[1] is prev and isinstance(args[0], fx.Node):
            args = [args[1], args[0]] if base != "sub" else args    # commutative: the other operand second
        if base in ("add", "mul", "sub", "div") and len(args) == 2 and args[0] is prev and isinstance(args[1], fx.Node) \
                and args[1].name in src and not n.kwargs.get("alpha"):
            other = src[args[1].name]
            if other.source == "const":   # one value throughout: a number in the statement
                v = {"add": other.value, "sub": -other.value, "mul": other.value, "div": 1.0 / other.value}[base]
                stmts.append(f"{'Muls' if base in ('mul', 'div') else 'Adds'}(acc, acc, {v!r}f, ow_);")
                names.append(base)
                prev = n
                continue
            full = tuple(other.shape) == tuple(conv.meta["val"].shape)
            numel = None if full else _per_channel(other.shape, cout, len(conv.meta["val"].shape))
            if numel is None and not full:
                raise AnalysisError(f"core op aten.{base} of the convolution's output with a tensor of shape "
                                    f"{list(other.shape)} is not covered by the conv template (only one value per "
                                    "output channel, one in all, or a tensor of the output's shape)")
            kind = "full" if full else ("channel" if numel > 1 else "one")
            k = next((i for i, (c, _) in enumerate(chan) if c == args[1].name), len(chan))
            if k == len(chan):
                chan.append((args[1].name, kind))
            if full:   # the other tensor's row at the output row's place, in float
                stmts.append(f"{base.capitalize()}(acc, acc, Full(e{k}g_, static_cast<uint64_t>(r) * ow_), ow_);")
            else:
                v = f"Scalar(e{k}g_.GetValue({'oc' if numel > 1 else '0'}))"
                v = {"add": v, "sub": f"-{v}", "mul": v, "div": f"1.0f / {v}"}[base]
                stmts.append(f"{'Muls' if base in ('mul', 'div') else 'Adds'}(acc, acc, {v}, ow_);")
            names.append(base)
            prev = n
            continue
        if not args or args[0] is not prev or any(isinstance(a, fx.Node) for a in args[1:]):
            raise AnalysisError(f"core op aten.{base} after the convolution (output of shape {list(conv.meta['val'].shape)}) "
                                "is not covered by the conv template (only an elementwise chain with scalars)")
        if base in UNARY_EPILOGUE:
            stmts.append(UNARY_EPILOGUE[base])
        elif base == "leaky_relu":
            stmts.append(f"LeakyRelu(acc, acc, {float(args[1]) if len(args) > 1 else 0.01!r}f, ow_);")
        elif base in ("mul", "add", "sub", "div") and len(args) == 2 and isinstance(args[1], (int, float)):
            v = float(args[1])
            v = {"mul": v, "add": v, "sub": -v, "div": 1.0 / v}[base]
            stmts.append(f"{'Muls' if base in ('mul', 'div') else 'Adds'}(acc, acc, {v!r}f, ow_);")
        elif base in ("clamp", "clamp_min", "clamp_max", "hardtanh"):
            lo, hi = _bounds(base, args)
            if lo is not None:
                stmts.append(f"Maxs(acc, acc, {float(lo)!r}f, ow_);")
            if hi is not None:
                stmts.append(f"Mins(acc, acc, {float(hi)!r}f, ow_);")
        else:
            stmts += _vector_unary(n, base, args, conv)
        names.append(base)
        prev = n
    return stmts, names, chan


def _per_channel(shape: tuple[int, ...], cout: int, rank: int) -> int | None:
    """cout when ``shape`` holds one value per output channel of a [N, C, ...] result, 1 for one value, else None."""
    dims = list(shape)
    numel = 1
    for d in dims:
        numel *= d
    if numel == 1:
        return 1
    if len(dims) > rank or numel != cout:
        return None
    padded = [1] * (rank - len(dims)) + dims
    return cout if padded[1] == cout else None


def _vector_unary(n: fx.Node, base: str, args: list, conv: fx.Node) -> list[str]:
    """Statements of any other one-tensor op the flat lowering writes (sigmoid, tanh, gelu, silu, elu, ...):
    tap = op(acc) with the scratch rows s0/s1, then acc = tap."""
    scratch = iter(("s0", "s1"))
    try:
        op, _args, kw = _canonical(base, _name(n)[1], args, dict(n.kwargs))
        lines = vecops.unary(op, "tap", "acc", "ow_", kw, lambda: next(scratch))
    except (AnalysisError, vecops.Unsupported, StopIteration, KeyError, TypeError, ValueError):
        lines = None
    if not lines:
        raise AnalysisError(f"core op aten.{base} after the convolution (output of shape "
                            f"{list(conv.meta['val'].shape)}) is not covered by the conv template")
    return lines + ["Adds(acc, tap, 0.0f, ow_);"]


def _bounds(base: str, args: list) -> tuple[Any, Any]:
    if base == "clamp":
        return (args[1] if len(args) > 1 else None), (args[2] if len(args) > 2 else None)
    if base == "clamp_min":
        return args[1], None
    if base == "clamp_max":
        return None, args[1]
    return (args[1] if len(args) > 1 else -1.0), (args[2] if len(args) > 2 else 1.0)


def _operands(src: dict[str, Operand], used: list[Operand], fwd: list, init_t: list, params: list) -> list[Operand]:
    """The op's inputs in the harness's order: every forward tensor, every init tensor, then the module's
    parameters when the convolution reads one (the harness appends them only then)."""
    known = {(o.source, o.index): o for o in src.values()}
    out = []
    for k, t in enumerate(fwd):
        o = known.get(("input", k))
        out.append(o or Operand(f"in{k}", "input", k, tuple(t.shape), str(t.dtype).replace("torch.", "")))
    for k, t in enumerate(init_t):
        o = known.get(("init", k))
        out.append(o or Operand(f"init{k}", "init", k, tuple(t.shape), str(t.dtype).replace("torch.", "")))
    if any(o.source == "param" for o in used):
        for k, (nm, p) in enumerate(params):
            o = known.get(("param", k))
            out.append(o or Operand(re.sub(r"\W", "_", nm), "param", k, tuple(p.shape), str(p.dtype).replace("torch.", "")))
    return out


def _plan(out: _Out, task: Task, spec: ConvSpec, per_case: list[list[Operand]], cases: list) -> Any:
    ops0 = per_case[0]
    names = [o.name if o.name not in ("y", "workspace", "tiling", "t", "op") else f"{o.name}In" for o in ops0]
    rename = dict(zip([o.name for o in ops0], names))
    out_name = "y"
    combos: list[tuple[str, ...]] = []
    for ops in per_case:
        c = tuple(o.dtype for o in ops)
        if c not in combos:
            combos.append(c)
    ix = [o.name for o in ops0].index(spec.x)
    for c in combos:
        for d in c:
            if d not in DTYPES:
                return _refuse(out, task, f"dtype {d} is not covered by the conv template")
    op_type = out.op_type
    kp = KernelParams(op_type=op_type, template="conv",
                      inputs=[TensorParam(names[i], InputKind.FULL, [c[i] for c in combos]) for i in range(len(ops0))],
                      outputs=[TensorParam(out_name, OutputKind.VEC, [c[ix] for c in combos])], summary=spec.summary,
                      extra={"conv": spec, "x": rename[spec.x], "w": rename[spec.w],
                             "b": rename[spec.b] if spec.b else None, "rename": rename})
    g = OpGraph(inputs=[OpNode(o.name, "input", [], {}, o.shape, o.dtype) for o in ops0 if o.source == "input"])
    pl = out.plan(task=task, op_type=op_type, category="convolution", template="conv", params=kp, graphs=[g])
    pl.files = render_conv(kp)
    pl.case_meta = [{"inputs": [{"shape": list(o.shape), "dtype": o.dtype} for o in ops if o.source == "input"],
                     "args": [], "init": list(init), "forward": sum(isinstance(t, torch.Tensor) for t in ins)}
                    for ops, (init, ins) in zip(per_case, cases)]
    return pl


def render_conv(kp: KernelParams) -> dict[str, str]:
    """The three files of the convolution template."""
    spec: ConvSpec = kp.extra["conv"]
    snake = snake_case(kp.op_type)
    x, w, b = kp.extra["x"], kp.extra["w"], kp.extra["b"]
    y = kp.outputs[0].name
    names = [p.name for p in kp.inputs]
    chan = spec.channel
    rename = kp.extra["rename"].get
    epi = "\n".join(f"            {s}\n            Round(acc);" for s in spec.epilogue)
    (sd, sh, sw), (pd, ph, pw), (dd, dh, dw) = spec.stride, spec.padding, spec.dilation
    conv = dict(sd=sd, sh=sh, sw=sw, pd=pd, ph=ph, pw=pw, dd=dd, dh=dh, dw=dw,
                transposed="true" if spec.transposed else "false")
    kernel = load("conv_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", kernel_name=snake, **conv,
        has_bias="true" if b else "false", x_macro=codegen._macro(x), w_macro=codegen._macro(w), y_macro=codegen._macro(y),
        bias_type=f"DTYPE_{codegen._macro(b)}" if b else "float", epilogue=epi,
        gm_args=", ".join(f"GM_ADDR {n}" for n in (*names, y)), x_arg=x, w_arg=w, b_arg=b or "nullptr", y_arg=y,
        has_full="true" if any(k == "full" for _, k in chan) else "false",
        extra_params="".join(f", GM_ADDR e{k}" for k in range(len(chan))),
        extra_init="".join(f"        e{k}g_.SetGlobalBuffer((__gm__ DTYPE_{codegen._macro(rename(c))}*)e{k}, {SIZES[n]});\n"
                           for k, (c, n) in enumerate(chan)),
        extra_members="".join(f"    GlobalTensor<DTYPE_{codegen._macro(rename(c))}> e{k}g_;\n" for k, (c, _) in enumerate(chan)),
        extra_call="".join(f", {rename(c)}" for c, _ in chan))
    params = []
    for kind, p in [("Input", p) for p in kp.inputs] + [("Output", kp.outputs[0])]:
        dts = ", ".join(codegen.GE[d] for d in p.dtypes)
        fmts = ", ".join("ge::FORMAT_ND" for _ in p.dtypes)
        params.append(f'        this->{kind}("{p.name}").ParamType(REQUIRED).DataType({{{dts}}}).Format({{{fmts}}});')
    host = load("conv_host.cpp.tmpl").substitute(op_type=kp.op_type, summary=kp.summary, op_snake=snake, params="\n".join(params),
                                                 x_index=names.index(x), w_index=names.index(w), **conv,
                                                 opd=spec.output_padding[0], oph=spec.output_padding[1],
                                                 opw=spec.output_padding[2], tgroups=spec.groups)
    tiling = load("conv_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": prune(kernel)}
