"""Pooling: max/avg pooling over 1-3 trailing dimensions (``nn.MaxPool1d/2d/3d``, ``nn.AvgPool1d/2d/3d``,
``F.max_pool2d``, adaptive pooling to any output size) onto the ``pool`` template.

The reference is read through the canonical front end's ``torch.export`` (core ATen keeps the pooling ops
whole: ``max_pool2d_with_indices``, ``avg_pool2d``, ``avg_pool3d``, ``_adaptive_avg_pool2d``, ...; a 1-D pool
is an ``unsqueeze`` -> 2-D pool -> ``squeeze``). The window's constants (kernel, stride, padding, dilation,
ceil mode, count_include_pad, divisor_override, or an adaptive output size) become constants of the host's
TilingFunc, which computes the output size from the runtime shape as PyTorch does; the kernel reads them from
the tiling struct (``templates/pool_*.tmpl``).

``plan_window(cases, mod, op_type)`` returns ``None`` when the reference holds no pooling op (the caller goes on
with the other templates), else an ``OwnPlan``: the filled template, or a refusal naming what it does not take.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import torch

from agent_graph.drafter import conv   # the convolution epilogue's reader writes the pooling chains
from agent_graph.drafter import moveattrs
from agent_graph.drafter.canonical import _export
from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode
from agent_graph.drafter.operands import InputKind, OutputKind
from agent_graph.drafter.ownplan import Beside, OwnPlan, case_meta, forward_arguments, opdef_params, read_cases
from agent_graph.drafter.templates import KernelParams, TensorParam, load
from bench_bridge.api import snake_case

CATEGORY = "pooling"
FLOATS = ("float32", "float16", "bfloat16")
MAX_OPS = {"max_pool2d_with_indices": 2, "max_pool3d_with_indices": 3, "adaptive_max_pool2d": 2,
           "adaptive_max_pool3d": 3}
AVG_OPS = {"avg_pool2d": 2, "avg_pool3d": 3, "_adaptive_avg_pool2d": 2, "_adaptive_avg_pool3d": 3}
VIEWS = {"unsqueeze", "squeeze", "view", "reshape", "_unsafe_view", "clone", "alias", "contiguous"}


@dataclass(frozen=True)
class Window:
    """One pooling, as the host computes it: constants per (depth, height, width); 1s where the pooling has
    fewer dimensions."""

    average: bool
    spatial: int                              # pooled trailing dimensions of the input (1-3)
    kernel: tuple[int, int, int]
    stride: tuple[int, int, int]
    pad: tuple[int, int, int]
    dilation: tuple[int, int, int]
    ceil_mode: bool = False
    count_include_pad: bool = True
    divisor_override: int = 0
    adaptive: tuple[int, int, int] | None = None   # output size of an adaptive pooling
    prologue: tuple[str, ...] = ()            # elementwise statements on each input row before pooling (rowData, dataLen)
    epilogue: tuple[str, ...] = ()            # ... and on each output chunk after it (acc, cols)


def _bind(node: torch.fx.Node) -> dict[str, Any]:
    """The op's arguments by schema name, defaults filled in."""
    schema = node.target._schema
    out = {}
    for i, a in enumerate(schema.arguments):
        if i < len(node.args):
            out[a.name] = node.args[i]
        elif a.name in node.kwargs:
            out[a.name] = node.kwargs[a.name]
        else:
            out[a.name] = a.default_value if a.has_default_value() else None
    return out


def _triple(v: Any, n: int, fill: int) -> tuple[int, ...]:
    vals = [int(x) for x in (v if isinstance(v, (list, tuple)) else [v])]
    if len(vals) == 1:
        vals = vals * n
    return tuple([fill] * (3 - n) + vals)


def read_window(node: torch.fx.Node, x_shape: tuple[int, ...]) -> Window:
    """The window of a core pooling node whose input is ``x`` (of ``x_shape``) seen through views."""
    name = node.target.__name__.split(".")[0]
    n = MAX_OPS.get(name) or AVG_OPS[name]
    a = _bind(node)
    pool_in = tuple(node.args[0].meta["val"].shape)
    if "output_size" in a:
        out = _triple(a["output_size"], n, 1)
        ins = (1,) * (3 - n) + pool_in[-n:]
        if any(o <= 0 for o in out):
            raise AnalysisError(f"adaptive pooling from {list(pool_in[-n:])} to {list(out[-n:])} is not covered by "
                                f"the pool template")
        k = tuple(-(-i // o) + (1 if i % o else 0) for i, o in zip(ins, out))   # the widest window (UB sizing)
        w = Window(name in AVG_OPS, n, k, (1, 1, 1), (0, 0, 0), (1, 1, 1), adaptive=out)
    else:
        k = _triple(a["kernel_size"], n, 1)
        s = _triple(a["stride"], n, 1) if a["stride"] else k
        w = Window(name in AVG_OPS, n, k, s, _triple(a["padding"], n, 0), _triple(a.get("dilation", 1), n, 1),
                   bool(a["ceil_mode"]), bool(a.get("count_include_pad", True)), int(a.get("divisor_override") or 0))
    return _trim(w, pool_in, x_shape)


def _trim(w: Window, pool_in: tuple[int, ...], x_shape: tuple[int, ...]) -> Window:
    """Drop leading window dimensions that do nothing (window 1, stride 1, no padding: a 1-D pool written as a
    2-D one over an unsqueezed dimension); the rest must be the last dimensions of x itself."""
    spatial = w.spatial
    while spatial > 1:
        i = 3 - spatial
        if (w.kernel[i], w.stride[i], w.pad[i]) != (1, 1, 0) or (w.adaptive and pool_in[-spatial] != 1):
            break   # an adaptive window of 1 is one only where the input has size 1 (in every case)
        spatial -= 1
    if len(x_shape) < spatial or tuple(x_shape[-spatial:]) != tuple(pool_in[-spatial:]):
        raise AnalysisError(f"pooling over dimensions {list(pool_in[-spatial:])} of an input viewed as {list(pool_in)} "
                            f"from {list(x_shape)} is not covered by the pool template")
    if w.adaptive:
        w = Window(**{**w.__dict__, "adaptive": (1,) * (3 - spatial) + w.adaptive[3 - spatial:],
                      "kernel": (1,) * (3 - spatial) + w.kernel[3 - spatial:],
                      "stride": (1,) * (3 - spatial) + w.stride[3 - spatial:]})
    return Window(**{**w.__dict__, "spatial": spatial})


def base_of(node: torch.fx.Node) -> str:
    return getattr(node.target, "__name__", str(node.target)).split(".")[0]


def read_graph(model: Any, ins: list) -> tuple[Window, str, str] | None:
    """(window, input dtype, output dtype) of a reference that is one pooling of one input (views around it);
    None when the exported graph holds no pooling op."""
    ep = _export(model, ins)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    pools = [n for n in calls if hasattr(n.target, "_schema") and n.target.__name__.split(".")[0] in {**MAX_OPS, **AVG_OPS}]
    if not pools:
        return None
    user_inputs = [n for n in ep.graph.nodes if n.op == "placeholder" and isinstance(n.meta.get("val"), torch.Tensor)]
    node = pools[0]
    x_shape = tuple(node.args[0].meta["val"].shape)
    pre, post = _chains(calls, node, user_inputs)
    for n in calls:
        base = n.target.__name__.split(".")[0] if hasattr(n.target, "_schema") else getattr(n.target, "__name__", str(n.target))
        if n is node or base in VIEWS or (base == "getitem" and n.args[0] is node and n.args[1] == 0) or n in pre or n in post:
            continue
        if base == "getitem" and n.args[0] is node:
            raise AnalysisError(f"the indices of {base_of(node)} (input of shape {list(x_shape)}) are not covered by "
                                f"the pool template")
        val = n.args[0].meta.get("val") if n.args and isinstance(n.args[0], torch.fx.Node) else None
        shape = list(val.shape) if isinstance(val, torch.Tensor) else []   # a tuple for an op with several results
        raise Beside(f"core op aten.{base} beside a pooling is not covered by the pool template "
                            f"(input of shape {shape})")
    if len(pools) > 1 or len(user_inputs) != 1:
        raise AnalysisError(f"a pooling with {len(user_inputs)} tensor inputs and {len(pools)} pooling ops is not "
                            f"covered by the pool template (one pooling of one input)")
    x = user_inputs[0].meta["val"]
    out = [o for o in ep.graph.output_node().args[0]]
    if len(out) != 1:
        raise AnalysisError("a pooling with several outputs (values and indices) is not covered by the pool template")
    w = read_window(node, tuple(x.shape))
    if pre or post:
        if x.dtype != torch.float32:
            raise AnalysisError("elementwise ops around a pooling of a 16-bit tensor are not covered by the pool template "
                                "(PyTorch rounds after every op)")
        w = Window(**{**w.__dict__, "prologue": tuple(_statements(pre, "rowData", "dataLen")),
                      "epilogue": tuple(_statements(post, "acc", "cols"))})
    if x.dtype != node.args[0].meta["val"].dtype:
        raise AnalysisError("a pooling of a cast input is not covered by the pool template")
    y = out[0].meta["val"]
    return w, str(x.dtype).replace("torch.", ""), str(y.dtype).replace("torch.", "")


WINDOW_FIELDS = (("kernel", "kernelSize", 1), ("stride", "strideSize", 1), ("pad", "padSize", 0),
                 ("dilation", "dilationSize", 1))   # (Window field, host array, the value of a dimension not pooled)


def window_code(windows: list[Window], scalars: list[list[tuple[str, Any]]]) -> tuple[str, set[int], set[int]]:
    """The host's window block: each of kernel, stride, padding, dilation and ceil mode a constant every case agrees
    on, or the forward argument (the op's attribute, read at run time) equal to it in every case: an int for every
    pooled dimension or a list of one per dimension; a stride left None (the kernel size) reads the kernel's. (The
    code, the attribute positions it reads, those that are lists.) Raises AnalysisError naming a field that follows
    no argument."""
    spatial = windows[0].spatial
    lines, used, lists = [], set(), set()
    for field, array, fill in WINDOW_FIELDS:
        per = [getattr(w, field)[3 - spatial:] for w in windows]
        if all(v == per[0] for v in per):
            vals = (fill,) * (3 - spatial) + per[0]
            lines.append(f"    const int64_t {array}[3] = {{{', '.join(map(str, vals))}}};")
            continue
        j = next((j for j in range(len(scalars[0])) if all(j < len(sc) and _gives(sc[j][1], v) for sc, v in zip(scalars, per))
                  and len({type(sc[j][1]) for sc in scalars}) == 1), None)
        if j is None:
            raise AnalysisError(f"the pooling's {field} changes from case to case ({list(per[0])} then "
                                f"{list(next(v for v in per if v != per[0]))}) and is not a forward argument")
        name = scalars[0][j][0]
        if isinstance(scalars[0][j][1], list):
            lists.add(j)
            read = (f"    const std::vector<int64_t> {name}Arg = AttrList(context, {j});   // '{name}': one per pooled "
                    f"dimension, or one for all")
            item = [f"{name}Arg[{name}Arg.size() == 1 ? 0 : {d}]" for d in range(spatial)]
        else:
            read = f"    const int64_t {name}Arg = AttrInt(context, {j});   // '{name}', every pooled dimension"
            item = [f"{name}Arg"] * spatial
        if j not in used:   # (a stride left None reads the kernel size's argument again)
            lines.append(read)
        used.add(j)
        lines.append(f"    const int64_t {array}[3] = {{{', '.join([str(fill)] * (3 - spatial) + item)}}};")
    ceil = [w.ceil_mode for w in windows]
    if all(c == ceil[0] for c in ceil):
        lines.append(f"    const bool ceilMode = {'true' if ceil[0] else 'false'};")
    else:
        j = moveattrs.attr_of(ceil, scalars, [None] * len(ceil))
        if j is None:
            raise AnalysisError("the pooling's ceil mode changes from case to case and is not a forward argument")
        used.add(j)
        lines.append(f"    const bool ceilMode = *context->GetAttrs()->GetBool({j});   // '{scalars[0][j][0]}'")
    return "\n".join(lines), used, lists


def _gives(arg: Any, dims: tuple[int, ...]) -> bool:
    """Whether a forward argument (an int, or a list of one or one per dimension) is this window field."""
    if isinstance(arg, bool):
        return False
    if isinstance(arg, int):
        return all(d == arg for d in dims)
    return isinstance(arg, list) and all(isinstance(a, int) for a in arg) and (
        list(dims) == arg or (len(arg) == 1 and all(d == arg[0] for d in dims)))


def render(kp: KernelParams) -> dict[str, str]:
    """The three files of the pool template."""
    w: Window = kp.extra["window"]
    snake = snake_case(kp.op_type)
    x, y = kp.inputs[0], kp.outputs[0]

    def trio(v: tuple[int, int, int]) -> str:
        return ", ".join(str(int(a)) for a in v)

    kernel = load("pool_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", in_macro=x.name.upper(),
        out_macro=y.name.upper(), kernel_name=snake, in_name=x.name, out_name=y.name,
        mode_doc="Average" if w.average else "Max", average="true" if w.average else "false",
        pad_value="0.0f" if w.average else "-__builtin_inff()", combine="Add" if w.average else "Max",
        count_include_pad="true" if w.count_include_pad else "false", divisor_override=f"{float(w.divisor_override)}f",
        adaptive="true" if w.adaptive else "false",
        chain_init=("        // tap and two scratch rows for the elementwise ops before / after the pooling\n"
                    "        chainRow_ = padBlock_ + 8 > t.outWPad ? padBlock_ + 8 : t.outWPad;\n"
                    "        pipe_.InitBuffer(chainBuf_, 3 * chainRow_ * sizeof(float));\n") if (w.prologue or w.epilogue) else "",
        chain_members=("    TBuf<TPosition::VECCALC> chainBuf_;\n    uint32_t chainRow_ = 0;\n") if (w.prologue or w.epilogue) else "",
        prologue=_block(w.prologue, "            ", "the ops before the pooling, on the input row"),
        epilogue=("            for (uint32_t r = 0; r < rows; ++r) {\n                LocalTensor<float> acc = block[r * outWPad_];\n"
                  + _block(w.epilogue, "                ", "the ops after the pooling, on the output row") + "            }\n"
                  ) if w.epilogue else "")
    params = opdef_params([x], [y])
    code = kp.extra.get("window_code") or window_code([w], [[]])[0]
    comment, *helpers = load("move_attrs.tmpl").template.strip("\n").split("\n\n")
    used_helpers = [h for h in helpers if f"{h.split('(')[0].split()[-1]}(context" in code]
    host = load("pool_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake, params=params, spatial=w.spatial,
        adaptive="true" if w.adaptive else "false", output_size=trio(w.adaptive or (1, 1, 1)), window_code=code,
        attr_helpers=("\n" + comment + "\n" + "\n\n".join(used_helpers) + "\n") if used_helpers else "",
        attrs="".join(line + "\n" for line in kp.extra.get("attrs", [])), chain_rows=3 if (w.prologue or w.epilogue) else 0,
        prologue="true" if w.prologue else "false")
    tiling = load("pool_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}


def _describe(w: Window) -> str:
    """The window in words for the generated files' summary line."""
    dims = slice(3 - w.spatial, 3)
    if w.adaptive:
        return f"to output size {list(w.adaptive[dims])}"
    words = [f"kernel {list(w.kernel[dims])}", f"stride {list(w.stride[dims])}", f"padding {list(w.pad[dims])}"]
    if any(d != 1 for d in w.dilation):
        words.append(f"dilation {list(w.dilation[dims])}")
    if w.ceil_mode:
        words.append("ceil mode")
    if w.average and not w.count_include_pad:
        words.append("padding not counted")
    if w.divisor_override:
        words.append(f"divisor {w.divisor_override}")
    return " ".join(words)


def _chains(calls: list, pool: torch.fx.Node, user_inputs: list) -> tuple[list, list]:
    """The elementwise chain from the input to the pooling and the one from the pooling to the output (each node
    reads the one before, views aside); empty when there is none."""
    def through_views(n: Any) -> Any:
        while isinstance(n, torch.fx.Node) and n.op == "call_function" and base_of(n) in VIEWS:
            n = n.args[0]
        return n
    pre: list = []
    cur = through_views(pool.args[0])
    while isinstance(cur, torch.fx.Node) and cur.op == "call_function" and cur not in user_inputs:
        pre.insert(0, cur)
        cur = through_views(cur.args[0]) if cur.args else None
    if pre and cur not in user_inputs:
        return [], []
    post: list = []
    head = next((u for u in pool.users if u.op == "call_function" and getattr(u.target, "__name__", "") == "getitem"
                 and u.args[1] == 0), pool)
    cur = head
    while isinstance(cur.meta.get("val"), torch.Tensor):
        users = [u for u in cur.users if u.op == "call_function"]
        if len(users) != 1 or base_of(users[0]) == "getitem" or not users[0].args or users[0].args[0] is not cur:
            break
        nxt = users[0]
        if base_of(nxt) in VIEWS:
            cur = nxt
            continue
        post.append(nxt)
        cur = nxt
    return pre, post


def _statements(chain: list, vec: str, count: str) -> list[str]:
    """AscendC statements for an elementwise chain on one float row ``vec`` of ``count`` elements (the conv
    epilogue's vocabulary: numbers, unary ops; scratch rows tap, s0, s1)."""
    if not chain:
        return []
    try:
        stmts, _, chan = conv._epilogue(chain[0].args[0], chain, [], {})
    except (AnalysisError, KeyError, IndexError, TypeError, ValueError) as e:
        failing = re.match(r"core op aten\.(\w+)", str(e))
        raise AnalysisError(f"core op aten.{failing.group(1) if failing else base_of(chain[0])} beside a pooling is not "
                            "covered by the pool template (around one pooling it takes elementwise ops with numbers)"
                            ) from e
    if chan:
        raise AnalysisError("a tensor read beside a pooling is not covered by the pool template")
    return [re.sub(r"\bow_\b", count, re.sub(r"\bacc\b", vec, st)) for st in stmts]


def _block(stmts: tuple[str, ...], indent: str, what: str) -> str:
    if not stmts:
        return ""
    head = [f"// {what}", "LocalTensor<float> tap = chainBuf_.Get<float>();", "LocalTensor<float> s0 = tap[chainRow_];",
            "LocalTensor<float> s1 = tap[2 * chainRow_];"]
    used = [h for h in head if not h.startswith("LocalTensor<float> s") or any(h.split()[1] in st for st in stmts)]
    return "".join(f"{indent}{ln}\n" for ln in (*used, *stmts))


def plan_window(cases: list, mod: Any, op_type: str) -> OwnPlan | None:
    """The plan (or refusal) for a reference that pools; None when it does not."""
    read = read_cases(cases, mod, read_graph, CATEGORY)
    if not isinstance(read, list):
        return read
    read = [(r, ins[0]) for r, (_, ins) in zip(read, cases)]
    windows = {(r[0].average, r[0].spatial, r[0].kernel if not r[0].adaptive else None, r[0].stride if not r[0].adaptive else None,
                r[0].pad, r[0].dilation, r[0].ceil_mode, r[0].count_include_pad, r[0].divisor_override, r[0].adaptive,
                r[0].prologue, r[0].epilogue)
               for r, _ in read}
    code, attrs = "", []
    if len(windows) > 1:
        # windows that differ only in what the host computes (kernel, stride, padding, dilation, ceil mode): one
        # kernel when each is a forward argument (the op's attribute)
        kinds = {(r[0].average, r[0].spatial, r[0].count_include_pad, r[0].divisor_override, r[0].adaptive, r[0].prologue,
                  r[0].epilogue) for r, _ in read}
        if len(kinds) > 1 or read[0][0][0].adaptive:
            return OwnPlan(CATEGORY, "the shape cases pool with different windows (one kernel must serve every case)")
        scalars = [forward_arguments(mod, ins) for _, ins in cases]
        try:
            code, used, lists = window_code([r[0] for r, _ in read], scalars)
            attrs = moveattrs.attr_lines(scalars, max(used, default=-1), lists, mod)
        except AnalysisError:
            attrs = None
        if not isinstance(attrs, list):   # (a window the model holds: a kernel per window, keyed by the host)
            return OwnPlan(CATEGORY, "the shape cases pool with different windows (one kernel must serve every case)")
    combos: list[tuple[str, str]] = []
    for (w, dx, dy), _ in read:
        for d in (dx, dy):
            if d not in FLOATS:
                return OwnPlan(CATEGORY, f"pooling of dtype {d} is not covered by the pool template")
        if (dx, dy) not in combos:
            combos.append((dx, dy))
    w = read[0][0][0]
    for (cw, _, _), x in read:
        # a long row is pooled in chunks of output columns (pool_host: at least two windows and the padding wide);
        # an adaptive pooling's windows are not one stride apart: its whole row must fit
        row = x.shape[-1] if cw.adaptive else 2 * (cw.kernel[2] * cw.dilation[2] + cw.pad[2] + 8)
        cols = row // max(cw.stride[2], 1) if cw.adaptive else row
        extra = 3 * (row + 16) * 4 if (w.prologue or w.epilogue) else 0   # the chains' tap and scratch rows
        if (row * cw.stride[2] + 24) * 12 + cw.kernel[2] * (cols + 8) * 8 + extra > 180 * 1024:
            return OwnPlan(CATEGORY, f"a pooling row of {x.shape[-1]} elements (input of shape {list(x.shape)}, window "
                                     f"{cw.kernel[2]}) does not fit in UB")
    kind = ("avg" if w.average else "max") + f"_pool{w.spatial}d" + (" (adaptive)" if w.adaptive else "")
    kp = KernelParams(op_type=op_type, template="pool",
                      inputs=[TensorParam("x", InputKind.FULL, [c[0] for c in combos])],
                      outputs=[TensorParam("y", OutputKind.COL, [c[1] for c in combos])],
                      summary=f"ops: {kind} {_describe(w) if not code else 'with the window given as arguments'}",
                      extra={"window": w, "window_code": code, "attrs": attrs})
    graphs = [OpGraph(inputs=[OpNode("x", "input", [], {}, tuple(x.shape), str(x.dtype).replace("torch.", ""))],
                      init=list(init)) for (_, x), (init, _) in zip(read, cases)]
    return OwnPlan(CATEGORY, template="pool", params=kp, graphs=graphs, files=render(kp), case_meta=case_meta(graphs, mod, cases))
