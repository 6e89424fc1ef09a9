"""Vector stages: the part of a staged op after its convolution or matmul, split into several vector kernels when
no one template takes it (a pool then a reduction over channels, a batch norm then a pool, a softmax over
channels then a max pool, a mean over the spatial dimensions then a log-sum-exp over channels).

The rest of the graph is cut after a *heavy* op (a reduction, a softmax, a norm, a pooling): the ops up to and
including it are one stage (its own module: ``head_split``), the ops after it are the next (``stages.split_after``),
planned again, and cut again if they are still refused. Each cut carries one tensor (the stage's result, in the
op's workspace); a stage that would read an earlier stage's result than the one just before is not cut there.

A stage's result shape is what the host must lay out before the next stage's tiling runs: it is read from a
``torch.export`` of the stage's module with every input dimension dynamic, as the sizes PyTorch derives symbolically
(a pooled size ``(h - 2) // 2 + 1``, a reduced dimension 1), and written as C++ over the stage's input dims.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Callable

import sympy
import torch
from torch import fx
from torch.export import Dim
from torch.fx.experimental import _config as shape_config
from torch.utils._sympy.printers import CppPrinter

from agent_graph.drafter.canonical import IDENTITY, _export, live_nodes
from bench_bridge.api import drawn_at_random

HEAVY = re.compile(r"^(sum|mean|amax|amin|prod|max|min|var|std|var_mean|logsumexp|_softmax|_log_softmax|cumsum|"
                   r"cumprod|argmax|argmin|\w*_norm\w*|\w*pool\w*|upsample\w*)$")
"""Core ATen ops a stage may end at: what the vector templates build a kernel around (elementwise ops and views
ride along with them)."""
VIEWS = {"view", "_unsafe_view", "reshape", "expand", "permute", "t", "transpose", "clone", "contiguous", "alias",
         "unsqueeze", "squeeze", "squeeze_copy", "unsqueeze_copy", "view_copy", "flatten"}
"""Ops that only view (or copy) their input: a cut before a heavy op moves above them."""
MAX_STAGES = 4
"""Vector stages after the convolution or matmul at most (each is a kernel's pass over the workspace)."""
MAX_CUTS = 6
"""Cut points tried per split (each tried cut plans two modules)."""


@dataclass
class VectorPart:
    """One vector stage: its plan, its per-case splits, and where each of its kernel's inputs comes from relative
    to the module that was cut: ("prev", d) the result of the stage d before it (1: the one just before), ("input", j)
    that module's input j."""

    plan: Any
    splits: list[Any]
    sources: list[tuple[str, Any]]
    shape: list[str] | None = None     # C++ expressions of its result's dims (None: the last stage)
    result_float: bool = False         # its result is float32 in every case (else it has the op input x's dtype)


def _name(n: fx.Node) -> str:
    t = n.target
    return getattr(t, "__name__", str(t)).split(".")[0]


def cut_points(module: torch.nn.Module, ins: list) -> list[str]:
    """Names of the export nodes a stage may end at, first to last: each heavy op (or the first result of one
    that returns several), and the op computing a heavy op's input (the elementwise ops before a pool may then be
    a stage of their own), that has live ops after it."""
    ep = _export(module, ins)
    live = live_nodes(ep)
    calls = [n for n in ep.graph.nodes if n.op == "call_function" and n.name in live]
    cuts: set[fx.Node] = set()
    for n in calls:
        if not HEAVY.match(_name(n)):
            continue
        before = n.args[0] if n.args and isinstance(n.args[0], fx.Node) else None
        while before is not None and _name(before) in VIEWS and isinstance(before.args[0], fx.Node):
            before = before.args[0]      # a stage does not end at a view: the values are the viewed op's
        if before is not None and before.op == "call_function" and before in calls:
            cuts.add(before)
        if isinstance(n.meta.get("val"), (tuple, list)):
            first = [u for u in n.users if _name(u) == "getitem" and u.args[1] == 0]
            if len(first) != 1:
                continue
            n = first[0]
        cuts.add(n)
    return [n.name for n in calls[:-1] if n in cuts]


def forward_input(g: fx.Graph, n: fx.Node, k: int, ins: list, sources: list, values: list, error: type,
                  where: str) -> fx.Node:
    """Forward tensor ``k`` (export placeholder ``n``) as an input of the stage module being built in ``g``."""
    if not isinstance(ins[k], torch.Tensor):
        raise error(f"forward argument {n.name}{where} is not a tensor")
    sources.append(("input", k))
    values.append(ins[k])
    return g.placeholder(n.name)


def module_tensor(g: fx.Graph, gm: torch.nn.Module, a: fx.Node, drawn: Any, sources: list, values: list,
                  error: type) -> fx.Node:
    """Module tensor ``a`` (a get_attr) read by a stage module: a constant when it holds one value throughout
    (and was not drawn at random), else an input of the stage module (source ("param", its name))."""
    t: Any = gm
    for part in a.target.split("."):
        t = getattr(t, part)
    flat = t.detach().reshape(-1) if isinstance(t, torch.Tensor) else None
    if flat is not None and flat.numel() and t.is_floating_point() and bool((flat == flat[0]).all()) and \
            a.target not in drawn:
        return g.get_attr(a.target)
    if not isinstance(t, torch.Tensor):
        raise error(f"the module attribute {a.target} read by a stage is not a tensor")
    sources.append(("param", a.target))
    values.append(t.detach().clone())
    return g.placeholder(re.sub(r"\W", "_", a.target))


def head_split(module: torch.nn.Module, ins: list, last: str, split_type: Any, error: type,
               drawn: Any = ()) -> Any:
    """The ops up to export node ``last`` as a module of their own (its inputs: the forward tensors and module
    tensors they read, in order; ``drawn``: module tensors drawn at random, inputs even when of one value)."""
    gm = _export(module, ins).module()
    nodes = list(gm.graph.nodes)
    end = next((n for n in nodes if n.name == last), None)
    if end is None:
        raise error(f"the graph has no node {last}")
    need: set[fx.Node] = set()
    todo = [end]
    while todo:
        n = todo.pop()
        if n not in need:
            need.add(n)
            todo += n.all_input_nodes
    user = [n for n in nodes if n.op == "placeholder"]
    g = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    sources, values = [], []
    for n in nodes:
        if n not in need:
            continue
        if n.op == "placeholder":
            env[n] = forward_input(g, n, user.index(n), ins, sources, values, error, "")
        elif n.op == "get_attr":
            env[n] = module_tensor(g, gm, n, drawn, sources, values, error)
        else:
            env[n] = g.node_copy(n, lambda x: env[x])
    g.output(env[end])
    head = fx.GraphModule(gm, g)
    head.graph.eliminate_dead_code()
    head.recompile()
    return split_type(head, values, sources)


def result_dims(module: torch.nn.Module, ins: list) -> list[str] | None:
    """The module's result dims as C++ over its inputs' dims (``in0_d2``: input 0, dimension 2), from an export
    with every input dimension dynamic; None when PyTorch cannot keep them symbolic."""
    dyn = tuple({d: Dim.AUTO for d in range(t.dim())} for t in ins)
    logging.getLogger("torch._export.non_strict_utils").setLevel(logging.ERROR)   # "0/1 specialized": expected
    try:
        with shape_config.patch(use_duck_shape=False):
            ep = torch.export.export(module, tuple(ins), dynamic_shapes=dyn, strict=False)
    except Exception:
        return None
    user = {s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT"}
    names: dict[sympy.Symbol, sympy.Symbol] = {}
    k = 0
    for n in ep.graph.nodes:
        if n.op != "placeholder" or n.name not in user:
            continue
        for d, size in enumerate(n.meta["val"].shape):
            e = size.node.expr if isinstance(size, torch.SymInt) else None
            if isinstance(e, sympy.Symbol) and e not in names:
                names[e] = sympy.Symbol(f"in{k}_d{d}", integer=True)
        k += 1
    out = next(n for n in ep.graph.nodes if n.op == "output").args[0]
    val = (out[0] if isinstance(out, (tuple, list)) else out).meta.get("val")
    if not isinstance(val, torch.Tensor):
        return None
    dims = []
    for size in val.shape:
        e = size.node.expr if isinstance(size, torch.SymInt) else sympy.Integer(int(size))
        if e.free_symbols - set(names):
            return None
        text = CppPrinter().doprint(e.xreplace(names))
        text = text.replace("c10::div_floor_integer", "FloorDiv").replace("static_cast<int64_t>", "")
        text = re.sub(r"(?<![\w>])\((-?\w+)\)", r"\1", text)      # (in0_d2) -> in0_d2, (-1) -> -1
        dims.append(re.sub(r"\b(\d+)L\b", r"\1", text))
    return dims


def checked_dims(heads: list[Any]) -> list[str] | None:
    """The head's result dims (``result_dims`` of case 0) checked against every case's actual result shape; where
    PyTorch specialised a size on case 0 (a group norm's reshape fixes the batch), each dim is matched instead to
    an input dim equal to it in every case, or a constant equal in every case; None when neither holds."""
    with torch.no_grad():
        outs = [h.module(*h.inputs) for h in heads]
    outs = [o[0] if isinstance(o, (tuple, list)) else o for o in outs]
    if not all(isinstance(o, torch.Tensor) for o in outs) or len({o.dim() for o in outs}) != 1:
        return None
    shapes = [[list(t.shape) if isinstance(t, torch.Tensor) else [] for t in h.inputs] for h in heads]
    dims = result_dims(heads[0].module, heads[0].inputs)
    if dims is not None and all(_evaluate(dims, s) == list(o.shape) for s, o in zip(shapes, outs)):
        first = shapes[0][0] if shapes[0] else []
        # a size the export fixed that is input 0's own at that place (a batch a reshape specialised) stays the input's
        return [f"in0_d{j}" if e.isdigit() and len(first) == len(dims) and first[j] == int(e) else e
                for j, e in enumerate(dims)]
    found = []
    for j in range(outs[0].dim()):
        sizes = [int(o.shape[j]) for o in outs]
        match = next((f"in{i}_d{d}" for i, t in enumerate(shapes[0]) for d in range(len(t))
                      if all(len(s[i]) == len(t) and s[i][d] == sz for s, sz in zip(shapes, sizes))), None)
        if match is None and len(set(sizes)) == 1:
            match = str(sizes[0])
        if match is None:
            return None
        found.append(match)
    return found


def _evaluate(dims: list[str], shapes: list[list[int]]) -> list[int] | None:
    """``result_dims`` expressions evaluated for inputs of ``shapes``."""
    env: dict[str, Any] = {f"in{i}_d{d}": v for i, s in enumerate(shapes) for d, v in enumerate(s)}
    env["FloorDiv"] = lambda a, b: a // b
    try:
        return [int(eval(e, {"__builtins__": {}}, env)) for e in dims]   # noqa: S307 (our own C++-and-Python subset)
    except Exception:
        return None


def shape_code(dims: list[str], ctx: str) -> str:
    """C++ appending ``dims`` (``result_dims``) to ``dims``, the input dims read from StageContext ``ctx``."""
    used = sorted(set(re.findall(r"\bin(\d+)_d(\d+)\b", " ".join(dims))))
    lines = [f"        const int64_t in{i}_d{d} = {ctx}.GetInputShape({i})->GetStorageShape().GetDim({d});"
             for i, d in used]
    lines += [f"        dims.AppendDim({e});" for e in dims]
    return "\n".join(lines)


def derived(parent: Any, make: Callable[[Any], Any]) -> Any:
    """``make(parent)`` (a stage's split of ``parent``), carrying the reference's forward floats (``floats``:
    (name, value) pairs) and a ``rebuild`` of the same cut for other values of them (the canonical reader exports a
    stage again with its floats moved to see which numbers follow them); memoised per values."""
    child = make(parent)
    if getattr(parent, "floats", None) is None or getattr(parent, "rebuild", None) is None:
        return child
    child.floats = list(parent.floats)
    made: dict[tuple, Any] = {}

    def rebuild(values: list[float]) -> Any:
        key = tuple(values)
        if key not in made:
            made[key] = make(parent.rebuild(list(values)))
        return made[key]
    child.rebuild = rebuild
    return child


def stage_cases(splits: list[Any]) -> list[tuple[list, list]]:
    """The planners' cases of a stage's module: ``Model(k, *floats)`` of case k, its inputs."""
    return [([k, *(v for _, v in (getattr(s, "floats", None) or []))], s.inputs) for k, s in enumerate(splits)]


def vector_parts(task: Any, splits: list[Any], plan_cases: Callable[..., Any], plan_type: Any, templates: set,
                 split_after: Callable[..., Any], stage_module: Callable[..., Any], error: type,
                 depth: int = MAX_STAGES, x_dtypes: list | None = None) -> list[VectorPart] | None:
    """The vector stages the module of ``splits`` (one per case) splits into, or None. ``x_dtypes``: each case's
    dtype of the op's input x (the first module's input 0): an intermediate result has that dtype, or float32 in
    every case (a 16-bit gradient's float32 product of a float32 statistic)."""
    if depth < 2:
        return None
    x_dtypes = x_dtypes or [s.inputs[0].dtype for s in splits]
    try:
        cuts = cut_points(splits[0].module, splits[0].inputs)
    except Exception:
        return None
    for cut in cuts[:MAX_CUTS]:
        def cut_head(s: Any, cut: str = cut) -> Any:
            return head_split(s.module, s.inputs, cut, type(s), error, drawn_at_random(s.module, s.init or [])) \
                if s.init is not None else head_split(s.module, s.inputs, cut, type(s), error)

        def cut_tail(s: Any, cut: str = cut) -> Any:
            return split_after(s.module, s.inputs, cut, s.init, first=False)
        try:
            heads = [derived(s, cut_head) for s in splits]
            tails = [derived(s, cut_tail) for s in splits]
        except error:
            continue
        if _only_casts(heads[0].module):
            continue        # a dtype conversion alone is not worth a pass over the data of its own
        as_x = all(t.inputs[0].dtype == d for t, d in zip(tails, x_dtypes))
        if not as_x and any(t.inputs[0].dtype != torch.float32 for t in tails):
            continue        # an intermediate has x's dtype or float32
        head = plan_cases(task, stage_cases(heads), stage_module(heads))
        if not isinstance(head, plan_type) or head.template not in templates:
            continue
        dims = checked_dims(heads)
        if dims is None:
            continue
        first = VectorPart(head, heads, list(heads[0].sources), dims, result_float=not as_x)
        tail = plan_cases(task, stage_cases(tails), stage_module(tails))
        if isinstance(tail, plan_type) and tail.template in templates:
            return [first, VectorPart(tail, tails, [("prev", 1) if s[0] == "inter" else s for s in tails[0].sources])]
        rest = vector_parts(task, tails, plan_cases, plan_type, templates, split_after, stage_module, error, depth - 1,
                            x_dtypes)
        if rest is None:
            continue
        try:
            for k, part in enumerate(rest):   # the tail module's sources, seen from the module that was cut
                part.sources = [_up(s, tails[0].sources, k, error) for s in part.sources]
        except error:
            continue
        return [first] + rest
    return None


CASTS = {"_to_copy"} | IDENTITY | VIEWS
"""Ops that only convert dtypes or view (this module's views, the canonical reader's identities)."""


def _only_casts(module: Any) -> bool:
    """Whether a stage module does nothing but convert dtypes (and view)."""
    calls = [n for n in module.graph.nodes if n.op == "call_function"]
    return bool(calls) and all(getattr(n.target, "__name__", str(n.target)).split(".")[0] in CASTS for n in calls)


def _up(source: tuple[str, Any], tail_sources: list[tuple[str, Any]], k: int, error: type) -> tuple[str, Any]:
    """Stage ``k`` of a tail module's split: its source ("input", j) of the tail module, seen from the module that
    was cut (the tail module's input 0 is the head's result, k + 1 stages before stage k)."""
    if source[0] != "input":
        return source
    up = tail_sources[source[1]]
    return ("prev", k + 1) if up[0] == "inter" else up
