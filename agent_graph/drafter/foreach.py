"""Foreach operators: one elementwise function applied to every tensor of a list (``[torch.exp(x) for x in xs]``,
``torch._foreach_add``, NPUKernelBench's Foreach* tasks).

The reference is read one item at a time: a module whose forward takes the i-th tensor of each list (and the
i-th element of a one-dimensional "scalar list" tensor) calls the reference with lists of one item, and its
output is the reference's i-th output. That decomposition is checked by running both on every case (each item's
output must equal the whole reference's, bit for bit) before it is used. The item function is planned by the
flat template like any elementwise chain; the foreach template then writes one kernel for the whole list: the
lists are DYNAMIC inputs and outputs, the host joins the tensors into one run of elements (each starting on a
32-byte block) split over the cores, and each core binds, tensor by tensor, the part of the run it owns
(codegen.KernelWriter's foreach mode, templates/foreach_host.cpp.tmpl).

Argument kinds (``ArgKind``): a list of tensors (``list``: a DYNAMIC input), a one-dimensional tensor with one
element per item that the reference indexes by item (``per_item``), anything else passed whole to every item
(``shared``: tensors, numbers).
"""
from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable

import torch
from torch import nn

from agent_graph.drafter.operands import InputKind, OutputKind


class ArgKind(StrEnum):
    LIST = "list"
    PER_ITEM = "per_item"
    SHARED = "shared"


@dataclass(frozen=True)
class ItemForm:
    """How the reference's forward arguments split into items."""

    names: tuple[str, ...]        # the forward's parameter names
    kinds: tuple[ArgKind, ...]


CORNER = 8
"""Item tensors are planned on their leading corner, at most CORNER long in each dimension: an elementwise plan
does not depend on the sizes (a dimension of 1 stays 1, a longer one stays longer than 1), and tracing a
67-million-element item costs seconds."""


def _corner(a: Any) -> Any:
    if not isinstance(a, torch.Tensor) or a.numel() <= CORNER:
        return a
    return a[tuple(slice(0, CORNER) for _ in range(a.dim()))].clone()


def has_list_argument(cases: list) -> bool:
    """Whether a forward argument of the first case is a non-empty list of tensors."""
    _, ins = cases[0]
    return any(_tensor_list(a) for a in ins)


def plan_foreach(task: Any, cases: list, mod: Any, plan_items: Callable, Plan: type, Unsupported: type,
                 render: Callable) -> Any:
    """The foreach plan of ``task`` (its ``cases`` as (init, forward inputs)), or an Unsupported naming why not.
    ``plan_items(task, item_cases, item_module)`` plans the item function; ``render`` writes a KernelParams' files."""
    name = task.name
    names = _forward_names(mod)
    if isinstance(names, str):
        return Unsupported(name, names)
    form = _item_form(cases, mod, names)
    if isinstance(form, str):
        return Unsupported(name, form)
    item_mod = _ItemModule(mod, form)
    item_cases = _item_cases(cases, form)
    res = plan_items(task, item_cases, item_mod)
    if isinstance(res, Unsupported):
        return Unsupported(name, f"each tensor of the list: {res.reason}", res.op, res.category, res.user_error)
    kp = copy.deepcopy(res.params)
    why = _foreach_ready(kp, res.template)
    if why:
        return Unsupported(name, why, category=res.category)
    tensor_args = [k for k, v in zip(form.kinds, item_cases[0][1]) if isinstance(v, torch.Tensor)]
    if any(k == ArgKind.PER_ITEM and p.kind != InputKind.SCALAR or k == ArgKind.SHARED and p.kind != InputKind.SCALAR
           for p, k in zip(kp.inputs, tensor_args)):
        return Unsupported(name, "a tensor other than the lists' items is read whole by every item (the foreach "
                                 "template takes lists, per-item scalars and one-element tensors)", category=res.category)
    kp.template = "foreach"
    kp.extra["foreach"] = {"lists": [p.name for p, k in zip(kp.inputs, tensor_args) if k == ArgKind.LIST]
                           + [p.name for p in kp.outputs],
                           "per_item": [p.name for p, k in zip(kp.inputs, tensor_args) if k == ArgKind.PER_ITEM]}
    if not any(k == ArgKind.LIST for k in tensor_args):
        return Unsupported(name, "no tensor list reaches the per-tensor function")
    pl = Plan(task=task, op_type=kp.op_type, category=res.category, template="foreach", params=kp, graphs=res.graphs)
    pl.files = render(kp)
    pl.case_meta = [_meta(init, ins) for init, ins in cases]
    return pl


# ---- reading the reference item by item ---------------------------------------------------------

def _tensor_list(a: Any) -> bool:
    return isinstance(a, (list, tuple)) and len(a) > 0 and all(isinstance(t, torch.Tensor) for t in a)


def _forward_names(mod: Any) -> tuple[str, ...] | str:
    params = list(inspect.signature(mod.Model.forward).parameters.values())[1:]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return "forward takes *args/**kwargs: the foreach template needs its arguments by name"
    return tuple(p.name for p in params)


def _item_form(cases: list, mod: Any, names: tuple[str, ...]) -> ItemForm | str:
    """The argument kinds under which every item of every case computes what the whole reference computes."""
    lists, candidates = set(), set()
    for _, ins in cases:
        if len(ins) != len(names):
            return f"forward takes {len(names)} arguments but a case gives {len(ins)}"
        sizes = {len(a) for a in ins if isinstance(a, (list, tuple))}
        if len(sizes) != 1:
            return "the forward's lists have different lengths in one case"
        n = sizes.pop()
        for k, a in enumerate(ins):
            if isinstance(a, (list, tuple)):
                if not _tensor_list(a):
                    return f"forward argument {names[k]} is a list of something other than tensors"
                lists.add(k)
            elif isinstance(a, torch.Tensor) and a.dim() == 1 and a.shape[0] == n:
                candidates.add(k)
    base = [ArgKind.LIST if k in lists else ArgKind.SHARED for k in range(len(names))]
    cases = [(init, [[_corner(t) for t in a] if k in lists else a for k, a in enumerate(ins)]) for init, ins in cases]
    tries = [tuple(ArgKind.PER_ITEM if k in candidates else kd for k, kd in enumerate(base)), tuple(base)]
    failure = ""
    for kinds in dict.fromkeys(tries):
        form = ItemForm(names, kinds)
        failure = _check(cases, mod, form)
        if not failure:
            return form
    return failure


def _check(cases: list, mod: Any, form: ItemForm) -> str:
    """'' when each item's output equals the reference's output for that item on every case (the lists' tensors
    cut to their corners: the same question on a smaller problem); else why not."""
    for c, (init, ins) in enumerate(cases):
        try:
            with torch.no_grad():
                whole = mod.Model(*copy.deepcopy(init))(*copy.deepcopy(ins))
        except Exception as e:   # the reference relies on its tensors' whole sizes (it slices them by its arguments)
            return (f"the reference fails on smaller tensors of the same lists, so it is not one function per tensor "
                    f"({type(e).__name__}: {str(e).splitlines()[0][:120]})")
        n = len(next(a for a, k in zip(ins, form.kinds) if k == ArgKind.LIST))
        if not _tensor_list(whole) or len(whole) != n:
            return "the reference does not return one list of tensors, one per item of its input lists"
        item = _ItemModule(mod, form).Model(*copy.deepcopy(init))
        for i in range(n):
            try:
                with torch.no_grad():
                    got = item(*_item_args(ins, form, i))
            except Exception as e:   # the reference indexes its arguments in a way one item cannot reproduce
                return f"the reference cannot be computed one tensor of the list at a time ({type(e).__name__}: {e})"
            if not _same(got, whole[i]):
                return (f"item {i} of case {c} computed alone differs from the reference's item {i} "
                        "(the items are not independent)")
    return ""


def _same(got: Any, want: torch.Tensor) -> bool:
    """Bit-for-bit the same tensor (NaN where the other has NaN)."""
    if not (isinstance(got, torch.Tensor) and got.shape == want.shape and got.dtype == want.dtype):
        return False
    if torch.equal(got, want):
        return True
    both_nan = torch.isnan(got) & torch.isnan(want) if got.is_floating_point() else torch.zeros_like(got, dtype=torch.bool)
    return bool(((got == want) | both_nan).all())


def _item_args(ins: list, form: ItemForm, i: int) -> list:
    """The i-th item's forward arguments (copies: the reference may write its inputs)."""
    out = []
    for a, k in zip(ins, form.kinds):
        v = a[i] if k == ArgKind.LIST else a[i:i + 1] if k == ArgKind.PER_ITEM else a
        out.append(v.clone() if isinstance(v, torch.Tensor) else copy.deepcopy(v))
    return out


def _item_cases(cases: list, form: ItemForm) -> list:
    """One item case per distinct (dtypes, ranks, numbers) of the items, in case order: the elementwise plan of an
    item does not depend on its tensors' sizes. Items whose list tensors hold one element each are left out when
    others exist (a one-element item reads like a scalar against a scalar; the kernel computes it like the rest)."""
    items = _distinct_items(cases, form)
    big = [(init, args) for init, args in items
           if max(a.numel() for a, k in zip(args, form.kinds) if k == ArgKind.LIST) > 1]
    return big or items


def _distinct_items(cases: list, form: ItemForm) -> list:
    seen, out = set(), []
    for init, ins in cases:
        n = len(next(a for a, k in zip(ins, form.kinds) if k == ArgKind.LIST))
        for i in range(n):
            views = [a[i] if k == ArgKind.LIST else a[i:i + 1] if k == ArgKind.PER_ITEM else a
                     for a, k in zip(ins, form.kinds)]
            key = tuple((tuple(a.shape) if a.numel() <= 1 else a.dim(), a.dtype) if isinstance(a, torch.Tensor)
                        else repr(a) for a in views)
            if key not in seen:
                seen.add(key)
                out.append((init, [_corner(a) for a in _item_args(ins, form, i)]))
    return out


class _ItemModule:
    """A module namespace whose ``Model`` computes one item: its forward takes the item's tensors under the
    reference's parameter names and calls the reference with lists of one."""

    def __init__(self, mod: Any, form: ItemForm):
        ref, kinds = mod.Model, form.kinds

        def call(self, *args):
            full = [[a] if k == ArgKind.LIST else a for a, k in zip(args, kinds)]
            return self.inner(*full)[0]

        src = f"def forward(self, {', '.join(form.names)}):\n    return _call(self, {', '.join(form.names)})\n"
        scope: dict[str, Any] = {"_call": call}
        exec(src, scope)  # noqa: S102 -- a forward with the reference's parameter names (the traced inputs' names)

        def init(self, *a, **kw):
            nn.Module.__init__(self)
            self.inner = ref(*a, **kw)

        self.Model = type(f"{ref.__name__}Item", (nn.Module,), {"__init__": init, "forward": scope["forward"]})


# ---- the item plan as a foreach kernel ----------------------------------------------------------

def _foreach_ready(kp: Any, template: str) -> str:
    """'' when the item plan is a flat kernel the foreach template can bind item by item."""
    if template != "flat":
        return f"the per-tensor function needs the {template} template (a foreach kernel is elementwise)"
    if kp.accs or kp.extra.get("windows") or kp.extra.get("row_maps") or kp.extra.get("pieces"):
        return "the per-tensor function reduces or reads windows (a foreach kernel is elementwise)"
    if any(p.kind not in (InputKind.FULL, InputKind.SCALAR, InputKind.UNREAD) for p in kp.inputs):
        return "the per-tensor function broadcasts a tensor against another (a foreach kernel is elementwise)"
    if any(p.kind != OutputKind.VEC for p in kp.outputs) or len(kp.outputs) != 1:
        return "the per-tensor function has other outputs than one tensor per item"
    return ""


def _meta(init: list, ins: list) -> dict:
    def one(t: torch.Tensor) -> dict:
        return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")}
    return {"inputs": [{"list": [one(t) for t in a]} if isinstance(a, (list, tuple)) else one(a)
                       for a in ins if isinstance(a, (list, tuple, torch.Tensor))],
            "args": [a for a in ins if isinstance(a, (int, float)) and not isinstance(a, bool)], "init": list(init)}
