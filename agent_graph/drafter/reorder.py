"""A binding that passes the forward's tensors in another order (NPUKernelBench's MseLossGradV2: ``forward(predict,
label, dout)``, ``ModelNew`` calls ``mse_loss_grad(dout, predict, label, reduction)``): the harness hands the op its
tensors in the binding's order, so the drafted op must take them in that order.

The planners read the reference through a view of its module whose ``Model.forward`` takes the tensors in the
binding's order (the same parameter names, reordered; it calls the reference's own forward in the reference's
order) and whose ``ModelNew`` takes them that way too, with each case's tensors reordered alike. Every planner
then names and orders the op's inputs as the binding passes them. The written project's cases list the tensors
in the forward's order again (its reference is the task's own file, whose ``ModelNew`` makes the same call).
"""
from __future__ import annotations

import inspect
import types
from typing import Any

from agent_graph.drafter import variants
from bench_bridge.api import binding_call, install_stubs


def binding_reorder(mod: Any, case: tuple) -> list[int] | str | None:
    """The forward tensor the binding passes at each of the op's places when that is a reordering of the forward's
    leading tensor arguments (each once, none else); why not, when the binding passes them in an order no reordering
    gives (a tensor twice, tensors after the forward's numbers); None when there is no binding, it passes them in
    order, or the order is not known (copies, casts)."""
    if not hasattr(mod, "ModelNew"):
        return None
    init, ins = case
    try:
        install_stubs()
        call = binding_call(mod, list(init), list(ins))
    except Exception:
        return None
    order = variants.binding_order(call[1], ins) if call else None
    n = len(order or ())
    if not order or order == list(range(n)):
        return None
    if sorted(order) != list(range(n)) or len(variants.binding_tensors(ins[:n])) != n or variants.binding_tensors(ins[n:]):
        return (f"the task's binding passes the forward's tensors in the order {order} (forward order: "
                f"{list(range(len(variants.binding_tensors(ins))))}), which no reordering of the op's inputs gives")
    return order


def _reordered_forward(base: type, order: list[int]) -> Any:
    params = list(inspect.signature(base.forward).parameters.values())
    n = len(order)
    shown = [params[0], *(params[1 + i] for i in order), *params[1 + n:]]

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        own = [None] * n
        for place, i in enumerate(order):
            own[i] = args[place]
        return base.forward(self, *own, *args[n:], **kwargs)

    forward.__signature__ = inspect.Signature([p.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                               for p in shown])
    return forward


def reordered(mod: Any, cases: list, order: list[int]) -> tuple[Any, list]:
    """(a view of ``mod`` whose Model and ModelNew take the tensors in ``order``, the cases reordered alike)."""
    view = types.ModuleType(mod.__name__)
    view.__dict__.update(mod.__dict__)
    for cls in ("Model", "ModelNew"):
        base = getattr(mod, cls)
        setattr(view, cls, type(base.__name__, (base,), {"forward": _reordered_forward(base, order),
                                                         "__module__": base.__module__}))
    n = len(order)
    return view, [(init, [ins[i] for i in order] + list(ins[n:])) for init, ins in cases]


def forward_order_meta(case_meta: list[dict], order: list[int]) -> list[dict]:
    """The written project's cases with the tensors in the forward's order again (its Model takes them so)."""
    n = len(order)
    out = []
    for meta in case_meta:
        ins = list(meta.get("inputs", []))
        if len(ins) >= n:
            ins = [ins[order.index(j)] for j in range(n)] + ins[n:]
        out.append({**meta, "inputs": ins})
    return out
