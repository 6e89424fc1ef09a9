"""Cube front end: a reference whose exported graph holds a matmul -> ``CubeGraph`` (the matmul's operands
and an elementwise epilogue ``OpGraph`` the flat lowering computes on each result tile).

The reference is read through the canonical front end's export (``torch.export`` + core-ATen
decompositions): ``torch.matmul``/``@``/``mm``/``bmm``/``F.linear``/``nn.Linear``/``addmm`` all arrive as
``aten.mm``/``aten.bmm``/``aten.addmm`` whose operands are graph inputs behind views, expands and
transposes. Each operand is walked back to its input (a forward tensor, a tensor given to ``__init__``,
or a module parameter: ``nn.Linear``'s weight and bias become op inputs after the forward and init tensors,
in the module's parameter order, as the harness passes them); a swap of the last two dimensions on the
way is a transposed operand. What follows the matmul (``addmm``'s ``beta * bias + alpha * mm`` included)
is read by the canonical reader into the epilogue graph, whose first input ``mmc`` is the fp32 result.
Refusals name the op and its shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx as fx
import torch.nn as nn

from bench_bridge.api import drawn_at_random
from agent_graph.drafter.analysis import AnalysisError, OpGraph, OpNode, Ref
from agent_graph.drafter.canonical import _Reader, _dtype_name, _export, _name, moved_floats
from agent_graph.drafter.constmask import Side, masked_triangle
from agent_graph.drafter.program import refs as _refs

MM_OPS = ("mm", "bmm", "addmm", "mv")
WIDENINGS = {(torch.float32, torch.float16), (torch.float32, torch.bfloat16), (torch.int32, torch.int8)}
"""(to, from) of an operand's cast the cube reads as the operand itself: it accumulates in that wider type."""
CHAIN = ("view", "_unsafe_view", "reshape", "expand", "permute", "t", "transpose", "clone", "contiguous", "alias",
         "unsqueeze", "squeeze", "lift_fresh_copy")
RESULT_VIEWS = ("view", "_unsafe_view", "reshape")
C_NAME = "mmc"


@dataclass(frozen=True)
class Operand:
    name: str                 # the graph input it reads
    trans: bool               # stored with its last two dimensions swapped ([K, M] for A, [N, K] for B)


@dataclass
class CubeGraph:
    graph: OpGraph                       # op inputs (forward, init, module tensors) + the epilogue nodes
    a: Operand
    b: Operand
    out_shape: tuple[int, ...]
    mm_dtype: str                        # the matmul's input dtype
    c_dtype: str                         # the dtype PyTorch rounds the product to before the epilogue
    epilogue_inputs: list[str] = field(default_factory=list)   # graph inputs the epilogue reads
    triangle: tuple[Side, int] | None = None   # the result's kept triangle (torch.triu / tril of the product)
    m: int = 0                           # rows of the matmul's product (a batch flattened into them counts)
    cols_rank: int = 1                   # the epilogue's dimensions making up N (a convolution's spatial ones)


class NoMatmul(AnalysisError):
    """The export holds no matmul (``torch.mv`` decomposes to a multiply and a row sum): not the cube's."""


SPY = {"mm", "bmm", "addmm", "mv", "matmul", "linear", "baddbmm", "addmv"}


def has_matmul(names: set[str]) -> bool:
    """Whether the reference dispatches a matmul (``names``: the ATen ops one eager run calls)."""
    return bool(names & SPY)


def _operand(n: Any, what: str) -> tuple[fx.Node, bool, list[str]]:
    """(graph input, transposed, chain node names) of a matmul operand."""
    try:
        return _operand_chain(n, what)
    except AnalysisError as e:
        if "permuted by" not in str(e) and "swaps dimensions" not in str(e):
            raise
        found = _reordered(n)      # permutes that only move dimensions of size 1 (an einsum's lowering)
        if found is None:
            raise
        return found


def _reordered(n: fx.Node) -> tuple[fx.Node, bool, list[str]] | None:
    """The operand's chain of views and permutes run on the input's element indices: (input, transposed, chain)
    when the matmul reads the input row-major, or row-major with its last two dimensions swapped; else None."""
    chain = []
    while isinstance(n, fx.Node) and n.op == "call_function" and _name(n)[0] in CHAIN and _name(n)[0] != "expand":
        chain.append(n)
        n = n.args[0]
    if not isinstance(n, fx.Node) or n.op != "placeholder" or not chain:
        return None
    shape = [int(d) for d in n.meta["val"].shape]
    base = torch.arange(max(1, int(torch.tensor(shape).prod().item())) if shape else 1).reshape(shape)
    v = base
    try:
        for c in reversed(chain):
            v = c.target(v, *c.args[1:], **c.kwargs)
    except Exception:
        return None
    out = list(v.shape)
    if len(out) < 2:
        return None
    if torch.equal(v, base.reshape(out)):
        return n, False, [c.name for c in chain]
    swapped = out[:-2] + [out[-1], out[-2]]
    if torch.equal(v, base.reshape(swapped).transpose(-1, -2)):
        return n, True, [c.name for c in chain]
    return None


def result_views(mm: fx.Node) -> list[fx.Node]:
    """The views of the matmul's result that keep its row-major order ([B*M, N] viewed [B, M, N]; an einsum's
    view, permute of a dimension of size 1, view), each the only user of the one before."""
    shape = [int(d) for d in mm.meta["val"].shape]
    base = torch.arange(max(1, int(torch.tensor(shape).prod().item()))).reshape(shape)
    rank = 0      # the result has the batch dimensions of the operand with more of them, then M and N
    for a in (mm.args[1:3] if _name(mm)[0] == "addmm" else mm.args[:2]):
        while isinstance(a, fx.Node) and a.op == "call_function" and a.args:
            a = a.args[0]
        if isinstance(a, fx.Node) and isinstance(a.meta.get("val"), torch.Tensor):
            rank = max(rank, a.meta["val"].dim())
    v, n, found, pending = base, mm, [], []
    while len(n.users) == 1:
        u = next(iter(n.users))
        if u.op != "call_function" or _name(u)[0] not in CHAIN or _name(u)[0] == "expand":
            break
        try:
            v = u.target(v, *u.args[1:], **u.kwargs)
        except Exception:
            break
        pending.append(u)
        if v.dim() == max(rank, 2) and v.shape[-1] == shape[-1] and torch.equal(v, base.reshape(list(v.shape))):
            found += pending
            pending = []
        n = u
    return found


def _operand_chain(n: Any, what: str) -> tuple[fx.Node, bool, list[str]]:
    chain: list[str] = []
    trans = False
    while isinstance(n, fx.Node) and n.op == "call_function":
        base = _name(n)[0]
        if _widening(n):          # a.to(torch.float32) of a 16-bit operand: the cube's fp32 accumulation of a
            chain.append(n.name)  # 16-bit product is that matmul (each product is exact in fp32)
            n = n.args[0]
            continue
        if base not in CHAIN:
            raise AnalysisError(f"the matmul's {what} is computed by core op aten.{base} (of shape "
                                f"{list(n.meta['val'].shape)}): an op before the matmul is not covered by the templates")
        rank = len(n.meta["val"].shape)
        if base == "permute":
            dims = [int(d) % rank for d in n.args[1]]
            if dims[:-2] != list(range(rank - 2)):
                raise AnalysisError(f"the matmul's {what} is permuted by {dims} (of shape {list(n.meta['val'].shape)}): "
                                    f"only a swap of the last two dimensions is covered by the templates")
            trans ^= dims[-2:] == [rank - 1, rank - 2]
        elif base in ("t", "transpose"):
            d = sorted(int(x) % rank for x in n.args[1:3]) if base == "transpose" else [0, 1]
            if rank >= 2 and d != sorted([rank - 2, rank - 1]) and d[0] != d[1]:
                raise AnalysisError(f"the matmul's {what} swaps dimensions {d} (of shape {list(n.meta['val'].shape)}): "
                                    f"only the last two are covered by the templates")
            trans ^= d[0] != d[1]
        chain.append(n.name)
        n = n.args[0]
    if not isinstance(n, fx.Node) or n.op != "placeholder":
        raise AnalysisError(f"the matmul's {what} is not a tensor input of the reference")
    return n, trans, chain


def _widening(n: fx.Node) -> bool:
    """A copy of a float16/bfloat16 tensor to float32 (``a.float()``, ``a.to(torch.float32)``) or of an int8 one to int32
    (``a.to(torch.int32)``: the cube's int32 accumulation of int8 products) and nothing else."""
    if _name(n)[0] != "_to_copy" or not n.args or not isinstance(n.args[0], fx.Node):
        return False
    src, out = n.args[0].meta.get("val"), n.meta.get("val")
    extra = set(n.kwargs) - {"dtype", "layout", "device", "pin_memory", "memory_format"}
    return (isinstance(src, torch.Tensor) and isinstance(out, torch.Tensor) and not extra
            and (out.dtype, src.dtype) in WIDENINGS and tuple(src.shape) == tuple(out.shape))


def _check_operand(p: fx.Node, trans: bool, rows: int, cols: int, what: str, shaped: bool = True) -> None:
    """A stored operand [.., rows, cols] (transposed: [.., cols, rows]) of any batch count (``shaped`` False:
    any shape holding whole matrices)."""
    shape = list(p.meta["val"].shape)
    last = rows if trans else cols
    numel = 1
    for d in shape:
        numel *= int(d)
    if len(shape) < 1 or (shaped and int(shape[-1]) != last) or numel % (rows * cols):
        raise AnalysisError(f"the matmul's {what} of shape {shape} is not a row-major [.., {rows}, {cols}] matrix "
                            f"(transposed: {trans}) the templates read")


def analyse_cube(model: nn.Module, inputs: list[Any], init: list[Any] | None = None, stop: str | None = None,
                 ep: Any = None, shaped: bool = True, moved: Any = None) -> CubeGraph:
    """The reference's matmul and its epilogue; ``stop``: the epilogue ends at that export node (a staged op's
    first stage: its value is the stage's result, the ops after it are the second stage's); ``shaped`` False: the
    host does not read M, K, N from the operands' shapes (a convolution's weight [OC, C, KH, KW] is [OC, K]);
    ``moved``: the export with each forward float moved, where ``ep`` is not the model's own (a rewritten convolution)."""
    ep = ep if ep is not None else _export(model, inputs)
    floats = [isinstance(v, float) for v in inputs]
    other = moved
    if any(floats) and other is None:
        try:
            other = _export(model, moved_floats(list(inputs)))
        except AnalysisError:
            other = None
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    mms = [n for n in calls if _name(n)[0] in MM_OPS]
    if not mms:
        raise NoMatmul("no matmul in the exported graph")
    if len(mms) != 1:
        shapes = ", ".join(str(list(n.meta["val"].shape)) for n in mms)
        raise AnalysisError(f"{len(mms)} matmuls in one reference (results of shapes {shapes}): one matmul per kernel "
                            f"is covered by the templates")
    mm = mms[0]
    base = _name(mm)[0]
    a_arg, b_arg = (mm.args[1], mm.args[2]) if base == "addmm" else (mm.args[0], mm.args[1])
    av, bv = a_arg.meta["val"], b_arg.meta["val"]
    M, K, N = int(av.shape[-2]), int(av.shape[-1]), int(bv.shape[-1]) if bv.dim() > 1 else 1
    scales: list[tuple[fx.Node, int]] = []      # alpha * a: a number scaling an operand, applied to the product
    if base != "addmm":
        a_arg = _peel_scalars(a_arg, scales)
        b_arg = _peel_scalars(b_arg, scales)
    pa, ta, ca = _operand(a_arg, "left operand")
    pb, tb, cb = _operand(b_arg, "right operand")
    if bv.dim() == 1:         # matrix @ vector: the vector is B stored as [N = 1, K]
        tb = True
    _check_operand(pa, ta, M, K, "left operand", shaped)
    _check_operand(pb, tb, K, N, "right operand", shaped)
    batch = mm.meta["val"].numel() // (M * N)
    for p, rows, cols, what in ((pa, M, K, "left"), (pb, K, N, "right")):
        if p.meta["val"].numel() // (rows * cols) not in (1, batch):
            raise AnalysisError(f"core op aten.{base} broadcasts its {what} operand of shape {list(p.meta['val'].shape)} "
                                f"over part of the batch of {batch} (result of shape {list(mm.meta['val'].shape)}): only a "
                                f"whole batch or one matrix for all is covered by the templates")
    da, db = _dtype_name(pa.meta["val"].dtype), _dtype_name(pb.meta["val"].dtype)
    if da != db or da not in ("float16", "bfloat16", "float32", "int8"):
        raise AnalysisError(f"core op aten.{base} of {da} x {db} (input of shape {list(av.shape)}) is not covered by "
                            f"the templates (the cube takes two float16, bfloat16, float32 or int8 operands)")
    res = mm
    skip = [*ca, *cb, mm.name, *(m.name for m, _ in scales)]
    for v in result_views(mm):
        res = v
        skip.append(res.name)
    out_shape = tuple(int(d) for d in res.meta["val"].shape)
    out_dtype = _dtype_name(mm.meta["val"].dtype)
    tri = masked_triangle(ep, inputs, out_shape) if stop is None and tuple(out_shape[-2:]) == (M, N) else None
    r = _Reader(ep, other, inputs, init or [], drawn_at_random(model, init or []))   # module weights become op inputs
    r.skip.update(skip)
    if tri is not None:
        r.skip.update(tri[2])
    r.placeholders()
    addmm = base == "addmm"
    c = OpNode(C_NAME, "input", [], {}, out_shape, "float32" if addmm and out_dtype != "float32" else out_dtype)
    r.g.inputs.insert(0, c)
    r.known.add(C_NAME)
    if addmm:
        _addmm_nodes(r, mm, res, out_shape, out_dtype)
    elif scales:
        _scale_nodes(r, other, scales, res, out_shape, out_dtype)
    else:
        r.alias[res.name] = C_NAME
    if stop is not None:
        later = [n.name for n in calls[[n.name for n in calls].index(stop) + 1:]]
        r.skip.update(later)
    r.nodes()
    if tri is not None:      # the masked node stands for its value; the kernel zeroes the masked triangle
        r.alias[tri[0].name] = r.alias.get(tri[1].name, tri[1].name)
    if stop is None:
        r.outputs()
    else:
        _stage_output(r, stop)
    g = r.g
    if len(g.outputs) != 1:
        raise AnalysisError(f"a matmul whose reference returns {len(g.outputs)} tensors is not covered by the templates")
    by_name = {n.name: n for n in g.nodes}
    used, todo = set(), list(g.outputs)     # what the result reads (a copy of x taken for later ops is not)
    while todo:
        name = todo.pop()
        if name not in used:
            used.add(name)
            todo += [a.name for a in _refs(by_name[name])] if name in by_name else []
    g.nodes[:] = [n for n in g.nodes if n.name in used]
    eps = [i.name for i in g.inputs[1:] if i.name in used]
    for name in (pa.name, pb.name):
        if name in eps:
            raise AnalysisError(f"the matmul operand {name} is also read by the epilogue: not covered by the templates")
    return CubeGraph(g, Operand(pa.name, ta), Operand(pb.name, tb), out_shape, da, c.dtype, eps,
                     tri[3] if tri is not None else None, M)


def _stage_output(r: _Reader, stop: str) -> None:
    """The first stage's result: the value of node ``stop`` (a copy when it is the product itself)."""
    name = r.alias.get(stop, stop)
    node = r.g.node(name)
    if any(name == i.name for i in r.g.inputs):
        r.g.nodes.append(OpNode(f"{name}_copy", "identity", [Ref(name)], {}, node.shape, node.dtype))
        name = f"{name}_copy"
    r.g.outputs.append(name)


def _peel_scalars(n: Any, scales: list[tuple[fx.Node, int]]) -> Any:
    """The operand under ``alpha * x`` / ``x * alpha`` (alpha a number, a forward float argument torch.export wrote
    in as one, or a one-value tensor input), each such multiply appended to ``scales`` as (node, alpha's index)."""
    while isinstance(n, fx.Node) and n.op == "call_function" and _name(n)[0] == "mul" and len(n.args) == 2 \
            and len(n.users) == 1:
        nums = [k for k, a in enumerate(n.args) if (isinstance(a, (int, float)) and not isinstance(a, bool)) or
                (isinstance(a, fx.Node) and a.op == "placeholder" and isinstance(a.meta.get("val"), torch.Tensor)
                 and a.meta["val"].numel() == 1 and a.meta["val"].is_floating_point())]   # or a one-value tensor input
        if len(nums) != 1 or not isinstance(n.args[1 - nums[0]], fx.Node):
            break
        scales.append((n, nums[0]))
        n = n.args[1 - nums[0]]
    return n


def _scale_nodes(r: _Reader, other: Any, scales: list[tuple[fx.Node, int]], res: fx.Node, shape: tuple,
                 dtype: str) -> None:
    """(alpha * a) @ b = alpha * (a @ b): each operand's factor multiplies the fp32 product (a forward float
    argument stays an attribute: the perturbed export's number tells it from a constant)."""
    by_name = {n.name: n for n in other.graph.nodes} if other is not None else {}
    x: Any = Ref(C_NAME)
    for k, (m, j) in enumerate(scales):
        twin = by_name.get(m.name)
        factor = r.conv(m.args[j], twin.args[j] if twin is not None and len(twin.args) > j else None)
        name = f"{m.name}_on_product"
        last = k == len(scales) - 1
        r.g.nodes.append(OpNode(name, "mul", [x, factor], {}, shape, dtype if last else "float32"))
        r.known.add(name)
        x = Ref(name)
    r.alias[res.name] = x.name


def _addmm_nodes(r: _Reader, mm: fx.Node, res: fx.Node, shape: tuple, dtype: str) -> None:
    """addmm(bias, a, b, beta, alpha) = beta * bias + alpha * (a @ b), rounded once (one library call)."""
    bias, _, _ = _operand(mm.args[0], "bias")
    beta, alpha = float(mm.kwargs.get("beta", 1.0)), float(mm.kwargs.get("alpha", 1.0))
    x: Any = Ref(C_NAME)
    name = mm.name
    if alpha != 1.0:
        r.g.nodes.append(OpNode(f"{name}_alpha", "mul", [x, alpha], {}, shape, "float32"))
        x = Ref(f"{name}_alpha")
    b: Any = Ref(bias.name)
    if beta != 1.0:
        r.g.nodes.append(OpNode(f"{name}_beta", "mul", [b, beta], {}, shape, "float32"))
        b = Ref(f"{name}_beta")
    r.g.nodes.append(OpNode(name, "add", [x, b] if beta != 0.0 else [x, 0.0], {}, shape, dtype))
    r.known.update({name, f"{name}_alpha", f"{name}_beta"})
    if res is not mm:
        r.alias[res.name] = name

