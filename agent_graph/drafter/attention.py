"""Attention front end: a reference whose export computes ``softmax(q @ k^T * scale + mask) @ v`` ->
``AttnGraph`` (each tensor's layout, the scale, the mask), read from the ATen ops and their values, not
from Python spellings.

``F.scaled_dot_product_attention`` and the hand-written forms (``@``/``matmul``/``bmm``/``einsum``, a
scale by ``*``/``/``, ``masked_fill``/``where``/an added ``-inf`` mask, ``softmax``) all export (core-ATen
decompositions) to two ``bmm``/``mm`` with one ``_softmax`` between them. The graph is then evaluated on
the case's inputs (an fx Interpreter over the exported program) and read numerically:

- **layouts**: each matmul operand is walked back to its input through views, expands and permutes;
  replaying that walk on a tensor of element indices gives, for every (batch x head, row, column) of
  the operand, the element of the input it reads. That table is matched against the layouts the kernel
  takes ([B, H, S, D], [B, S, H, D], [B, S, H*D] split into heads, [N, S, D], [S, D]); a key/value
  tensor with fewer heads (``repeat_interleave``, ``expand``, ``enable_gqa``) is a GQA/MQA group. The
  output is read the same way through the views after the second matmul.
- **scale**: the product of the scalar multiplies/divides on the way (q, k, and the scores).
- **mask**: scores the softmax sees as -inf (or below -1e4) form a keep pattern, which must be a lower
  triangle ``j <= i + offset`` (``is_causal``, ``tril``, a registered causal buffer) or nothing.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.fx as fx
import torch.nn as nn

from agent_graph.drafter.canonical import _dtype_name, _export, _name
from agent_graph.drafter.constmask import evaluate as _evaluate, lower_offset as _causal_offset

MATMULS = ("bmm", "mm")
CHAIN = ("view", "_unsafe_view", "reshape", "expand", "permute", "t", "transpose", "clone", "contiguous", "alias",
         "unsqueeze", "squeeze", "lift_fresh_copy", "expand_copy", "view_copy", "permute_copy", "slice")
SCALING = ("mul", "div")
DROPOUT = ("native_dropout", "bernoulli", "rand", "rand_like", "dropout")
MASKED = -1e4            # a score at or below this is a masked position (exp underflows to 0 in float)
FUSED_SDPA = "_scaled_dot_product"   # eager CPU kernels computing the scores in float without rounding


class NotAttention(Exception):
    """The export is not two matmuls around one softmax: another planner's."""


class AttnUnsupported(Exception):
    """An attention form the kernel does not take (the message names the op or construct and its shape)."""


@dataclass(frozen=True)
class Layout:
    """How a tensor of shape `shape` holds [batch, heads, rows, D] (D contiguous)."""

    kind: str                 # bhsd4 | bshd4 | bshd3 | bsd3 | sd2
    heads: int                # heads this tensor holds (key/value: its own count)

    def strides(self, shape: tuple[int, ...], d: int) -> tuple[int, int, int]:
        """Element strides (batch, head, row)."""
        if self.kind == "bhsd4":
            return shape[1] * shape[2] * shape[3], shape[2] * shape[3], shape[3]
        if self.kind == "bshd4":
            return shape[1] * shape[2] * shape[3], shape[3], shape[2] * shape[3]
        if self.kind == "bshd3":
            return shape[1] * shape[2], d, shape[2]
        if self.kind == "bsd3":
            return shape[1] * shape[2], 0, shape[2]
        return 0, 0, shape[1]


@dataclass
class AttnGraph:
    inputs: list[tuple[str, tuple[int, ...], str]]     # forward tensors q, k, v: (name, shape, dtype)
    out_shape: tuple[int, ...]
    layouts: dict[str, Layout]                          # q, k, v, y
    batch: int
    heads: int
    kv_heads: int
    seq_q: int
    seq_k: int
    head_dim: int
    scale: float
    causal_offset: int | None                           # None: no causal mask
    round_scores: bool                                  # 16-bit scores rounded as the reference's matmul does
    dtype: str
    float_args: list[float] = field(default_factory=list)
    mask: tuple[str, tuple[int, ...], str] | None = None   # an additive float mask input: (name, shape, dtype)
    mask_dims: tuple[int | None, int | None, int | None] = (None, None, None)  # its batch, head, row dims (None: broadcast)


def _base(n: Any) -> str:
    return _name(n)[0] if isinstance(n, fx.Node) and n.op == "call_function" else ""


def _walk(n: Any, what: str) -> tuple[fx.Node, list[fx.Node], float]:
    """(input placeholder, chain nodes from it to `n`, scalar factor on the way) of a matmul operand."""
    chain: list[fx.Node] = []
    factor = 1.0
    while isinstance(n, fx.Node) and n.op == "call_function":
        base = _base(n)
        if base in SCALING and len(n.args) == 2 and isinstance(n.args[1], (int, float)):
            factor = factor * float(n.args[1]) if base == "mul" else factor / float(n.args[1])
        elif base == "_to_copy":
            pass
        elif base not in CHAIN:
            raise AttnUnsupported(f"the attention's {what} is computed by core op aten.{base} (of shape "
                                  f"{list(n.meta['val'].shape)}): an op before the attention is not covered by the templates")
        chain.append(n)
        n = n.args[0]
    if not isinstance(n, fx.Node) or n.op != "placeholder":
        raise AttnUnsupported(f"the attention's {what} is not a tensor input of the reference")
    return n, chain[::-1], factor


def _reaches(n: fx.Node, target: fx.Node) -> bool:
    """Whether `target` is `n` or one of its inputs, transitively."""
    seen, todo = set(), [n]
    while todo:
        x = todo.pop()
        if x is target:
            return True
        if x.name in seen:
            continue
        seen.add(x.name)
        todo += [a for a in x.all_input_nodes]
    return False


def _replay(x: torch.Tensor, chain: list[fx.Node]) -> torch.Tensor:
    """The chain's view/permute/expand ops applied to an index tensor (scalings and casts skipped)."""
    for n in chain:
        base = _base(n)
        if base in SCALING or base == "_to_copy":
            continue
        x = n.target(x, *n.args[1:], **{k: v for k, v in n.kwargs.items() if k != "dtype"})
    return x


def _index_table(p: fx.Node, chain: list[fx.Node], trans: bool) -> torch.Tensor:
    """[N, rows, D] of flat element indices into input `p` (trans: the operand holds [.., D, rows])."""
    shape = tuple(p.meta["val"].shape)
    idx = torch.arange(math.prod(shape), dtype=torch.float64).reshape(shape)
    t = _replay(idx, chain)
    if trans:
        t = t.transpose(-2, -1)
    return t.reshape(-1, t.shape[-2], t.shape[-1])


def _layout_of(table: torch.Tensor, shape: tuple[int, ...], heads_q: int | None) -> tuple[Layout, int, int]:
    """(layout, batch, heads) that reproduce `table` ([batch x query heads, rows, D]) from a tensor of `shape`."""
    n, rows, d = table.shape
    cands: list[tuple[Layout, int]] = []
    if len(shape) == 4:
        cands += [(Layout("bhsd4", shape[1]), shape[0]), (Layout("bshd4", shape[2]), shape[0])]
    elif len(shape) == 3:
        if shape[2] == d:
            cands.append((Layout("bsd3", 1), shape[0]))
        if shape[2] % d == 0:
            cands.append((Layout("bshd3", shape[2] // d), shape[0]))
    elif len(shape) == 2:
        cands.append((Layout("sd2", 1), 1))
    for lay, batch in cands:
        heads = heads_q if heads_q is not None else (n // batch if batch and n % batch == 0 else 0)
        if not heads or batch * heads != n or heads % lay.heads:
            continue
        bs, hs, rs = lay.strides(shape, d)
        group = heads // lay.heads
        nn_ = torch.arange(n)
        base = (nn_ // heads) * bs + (nn_ % heads // group) * hs
        want = base.view(n, 1, 1) + torch.arange(rows).view(1, rows, 1) * rs + torch.arange(d).view(1, 1, d)
        if torch.equal(table.to(torch.int64), want):
            return lay, batch, heads
    raise AttnUnsupported(f"an attention operand of shape {list(shape)} is laid out in a way the templates do not read "
                          f"(covered: [B, H, S, D], [B, S, H, D], [B, S, H*D], [N, S, D], [S, D])")


def _mask_layout(mask: fx.Node, x: torch.Tensor, value: torch.Tensor) -> tuple[int | None, int | None, int | None]:
    """(batch, head, row) dimensions of an added mask input (None: broadcast), right-aligned against the scores
    [.., Sq, Sk]; its last dimension must be the keys."""
    shape = tuple(value.shape)
    if not isinstance(value, torch.Tensor) or not value.is_floating_point() or value.dim() < 1 or shape[-1] != x.shape[-1]:
        raise AttnUnsupported(f"a mask input {mask.name} of shape {list(shape)} against scores of shape {list(x.shape)} "
                              f"is not covered (an added float mask with a full key dimension is)")
    try:
        torch.broadcast_shapes(shape, tuple(x.shape))
    except RuntimeError:
        raise AttnUnsupported(f"a mask input of shape {list(shape)} does not broadcast to the scores {list(x.shape)}") from None
    r, xr = len(shape), x.dim()
    if r > xr or any(d != 1 for d in shape[: max(0, r - xr)]):
        raise AttnUnsupported(f"a mask input of shape {list(shape)} with more dimensions than the scores {list(x.shape)}")
    def dim(j_from_end: int) -> int | None:
        j = r - j_from_end
        return j if 0 <= j < r and shape[j] != 1 else None
    lead = xr - 2      # the scores' leading dims: [B, H] (4-D), [N] (3-D) or none
    batch = dim(4) if lead == 2 else dim(3) if lead == 1 else None
    head = dim(3) if lead == 2 else None
    return batch, head, dim(2)


def analyse_attention(model: nn.Module, inputs: list[Any], fused: bool) -> AttnGraph:
    ep = _export(model, inputs)
    calls = [n for n in ep.graph.nodes if n.op == "call_function"]
    mms = [n for n in calls if _base(n) in MATMULS]
    sms = [n for n in calls if _base(n) in ("_softmax", "_safe_softmax")]
    if len(sms) == 1 and len(mms) > 2 and any(_base(n) == "bmm" for n in mms):
        shapes = ", ".join(str(list(n.meta["val"].shape)) for n in mms)
        raise AttnUnsupported(f"an attention with projections ({len(mms)} matmuls, results of shapes {shapes}) is not covered: "
                              f"the attention template takes q, k and v as inputs (project them in separate kernels)")
    if len(mms) != 2 or len(sms) != 1:
        raise NotAttention("not two matmuls around one softmax")
    for n in calls:
        if _base(n) in DROPOUT:
            src = n.args[0] if n.args and isinstance(n.args[0], fx.Node) else n
            shape = list(getattr(src.meta.get("val"), "shape", []))
            p = f" p={n.args[1]}" if len(n.args) > 1 and isinstance(n.args[1], float) else ""
            raise AttnUnsupported(f"dropout in training mode (core op aten.{_base(n)}{p} on attention weights of shape "
                                  f"{shape}) is not covered: the kernel is deterministic (use p=0 or eval mode)")
    mm1, mm2 = sorted(mms, key=lambda n: list(ep.graph.nodes).index(n))
    sm = sms[0]
    if int(sm.args[1]) % len(sm.meta["val"].shape) != len(sm.meta["val"].shape) - 1:
        raise NotAttention("softmax over an inner dimension")
    q, qchain, fq = _walk(mm1.args[0], "query")
    k, kchain, fk = _walk(mm1.args[1], "key")
    v, vchain, fv = _walk(mm2.args[1], "value")
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    specs = {s.arg.name: s for s in ep.graph_signature.input_specs if hasattr(s.arg, "name")}
    user = [p for p in placeholders if specs[p.name].kind.name == "USER_INPUT"]
    tensors = [p for p in user if isinstance(p.meta.get("val"), torch.Tensor)]
    mask = tensors[3] if len(tensors) == 4 else None
    if [p.name for p in tensors][:3] != [q.name, k.name, v.name] or len(tensors) > 4 or fv != 1.0:
        names = ", ".join(f"{p.name} {list(p.meta['val'].shape)}" for p in tensors)
        raise AttnUnsupported(f"an attention whose tensor inputs ({names}) are not exactly q, k, v in that order "
                              f"(a mask passed as an input, an input used twice) is not covered yet")
    env = _evaluate(ep, inputs)
    # scores -> softmax input: scalings, an additive/-inf mask; everything else refused
    scores = env[mm1.name].to(torch.float64)
    x = env[sm.args[0].name].to(torch.float64)
    fs = 1.0
    n = sm.args[0]
    while isinstance(n, fx.Node) and n is not mm1:
        base = _base(n)
        if base in SCALING and isinstance(n.args[1], (int, float)):
            fs = fs * float(n.args[1]) if base == "mul" else fs / float(n.args[1])
            n = n.args[0]
        elif base in ("where", "add", "masked_fill"):   # the mask: follow the argument that carries the scores
            other = [a for a in n.args if isinstance(a, fx.Node) and not _reaches(a, mm1)]
            if mask is not None and any(_reaches(a, mask) for a in other) and base != "add":
                raise AttnUnsupported(f"a mask input {mask.name} of shape {list(mask.meta['val'].shape)} used by core op "
                                      f"aten.{base} (a boolean or fill mask) is not covered yet: an added float mask is")
            n = next((a for a in n.args if isinstance(a, fx.Node) and _reaches(a, mm1)), None)
        elif base in CHAIN or base == "_to_copy":
            n = n.args[0]
        else:
            raise AttnUnsupported(f"core op aten.{base} (of shape {list(n.meta['val'].shape)}) between the scores and the "
                                  f"softmax is not covered by the attention template")
    scale = fq * fk * fs
    scaled = fs * scores.reshape(x.shape)   # q and k carry their own factors into the product
    tol = 1e-2 if _dtype_name(env[mm1.name].dtype) != "float32" else 1e-5
    mask_info = None
    if mask is not None:   # an added float mask: the softmax sees fs * S + mask (broadcast)
        mask_info = _mask_layout(mask, x, inputs[3])
        scaled = scaled + torch.broadcast_to(inputs[3].to(torch.float64), x.shape)
        both_inf = torch.isneginf(x) & torch.isneginf(scaled)
        x = torch.where(both_inf, torch.zeros_like(x), x)
        scaled = torch.where(both_inf, torch.zeros_like(scaled), scaled)
        if bool(((x <= MASKED) & (scaled > MASKED)).any()):
            raise AttnUnsupported(f"a mask input {mask.name} of shape {list(inputs[3].shape)} together with another mask "
                                  f"(causal) on the scores of shape {list(x.shape)} is not covered yet")
    keep = x > MASKED
    if not torch.allclose(x[keep], scaled[keep], rtol=tol, atol=tol * max(1.0, float(scaled.abs().max()))):
        raise AttnUnsupported(f"an additive mask on the scores of shape {list(x.shape)} (other than -inf) is not covered yet")
    off = _causal_offset(keep) if mask is None else None
    if isinstance(off, str):
        raise AttnUnsupported(f"{off} is not covered by the attention template")
    probs = env[mm2.args[0].name]
    if probs.numel() != env[sm.name].numel() or not torch.allclose(probs.reshape(-1).double(),
                                                                    env[sm.name].reshape(-1).double(), equal_nan=True):
        raise AttnUnsupported(f"an op between the softmax (of shape {list(sm.meta['val'].shape)}) and the second matmul "
                              f"is not covered by the attention template")
    # the output: views of the second product
    out_nodes = [n for n in ep.graph.nodes if n.op == "output"][0].args[0]
    if len(out_nodes) != 1:
        raise AttnUnsupported(f"an attention returning {len(out_nodes)} tensors is not covered by the template")
    chain = []
    o = out_nodes[0]
    while isinstance(o, fx.Node) and o is not mm2:
        if _base(o) not in CHAIN and _base(o) != "_to_copy":
            raise AttnUnsupported(f"core op aten.{_base(o) or o.op} after the attention (of shape "
                                  f"{list(o.meta['val'].shape)}) is not covered by the attention template")
        chain.append(o)
        o = o.args[0]
    if o is not mm2:
        raise AttnUnsupported("the attention's output is not the second matmul's result")
    prod = tuple(mm2.meta["val"].shape)
    src = _replay(torch.arange(math.prod(prod), dtype=torch.float64).reshape(prod), chain[::-1])
    out_shape = tuple(src.shape)
    dest = torch.empty(math.prod(prod), dtype=torch.int64)
    dest[src.reshape(-1).to(torch.int64)] = torch.arange(src.numel())
    ytable = dest.reshape(-1, prod[-2], prod[-1]).to(torch.float64)

    qt = _index_table(q, qchain, False)
    kt = _index_table(k, kchain, True)
    vt = _index_table(v, vchain, False)
    lq, batch, heads = _layout_of(qt, tuple(q.meta["val"].shape), None)
    lk, _, _ = _layout_of(kt, tuple(k.meta["val"].shape), heads)
    lv, _, _ = _layout_of(vt, tuple(v.meta["val"].shape), heads)
    ly, _, _ = _layout_of(ytable, out_shape, heads)
    if lk.heads != lv.heads:
        raise AttnUnsupported(f"keys with {lk.heads} heads and values with {lv.heads} heads are not covered")
    dts = {_dtype_name(p.meta["val"].dtype) for p in (q, k, v)}
    dt = dts.pop()
    if dts or dt not in ("float32", "float16", "bfloat16") or _dtype_name(out_nodes[0].meta["val"].dtype) != dt:
        raise AttnUnsupported("an attention over mixed or non-float dtypes is not covered by the template")
    shape_q = tuple(qt.shape)
    return AttnGraph(
        inputs=[(p.name, tuple(p.meta["val"].shape), _dtype_name(p.meta["val"].dtype)) for p in (q, k, v)],
        out_shape=out_shape, layouts={"q": lq, "k": lk, "v": lv, "y": ly}, batch=batch, heads=heads, kv_heads=lk.heads,
        seq_q=shape_q[1], seq_k=int(kt.shape[1]), head_dim=shape_q[2], scale=scale, causal_offset=off,
        round_scores=dt != "float32" and not fused, dtype=dt,
        mask=None if mask is None else (mask.name, tuple(mask.meta["val"].shape), _dtype_name(mask.meta["val"].dtype)),
        mask_dims=mask_info or (None, None, None),
        float_args=[float(a) for a in inputs if isinstance(a, float)])


def analyse_cases(mod: Any, cases: list, fused: bool) -> list[AttnGraph]:
    return [analyse_attention(mod.Model(*copy.deepcopy(init)), list(ins), fused) for init, ins in cases]
