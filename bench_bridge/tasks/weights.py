"""The model's own weights a drafted op takes as inputs (torch is imported only to build a second instance)."""
from __future__ import annotations

import copy
from typing import Any

MODULE_LIMIT = 512 << 20
"""The most bytes of the model's own weights a case hands to the op (nn.Linear's, nn.Embedding's): an
nn.Embedding(100000, 768) table is 293 MiB."""


def module_tensors(model: Any, init: list) -> list:
    """The model's own floating-point parameters and buffers (parameters first, each in module order) that
    are neither tensors given to ``__init__`` nor one value everywhere (unless drawn at random): a drafted op
    takes them as inputs
    after the forward and init tensors (``nn.Linear``'s weight and bias), in the order ``torch.export``
    lifts them."""
    return [t for _, t in module_tensor_items(model, init)]


def _one_value(t: Any) -> bool:
    flat = t.detach().reshape(-1)
    return bool(flat.numel()) and bool((flat == flat[0]).all())


def drawn_at_random(model: Any, init: list) -> set[str]:
    """Names of the model's floating-point tensors of one value that another instance of the model, built
    under another seed, holds differently: random draws (``nn.Parameter(torch.randn(1))``), weights like any
    other, not numbers to write into the kernel. Empty when the model cannot be built again."""
    import torch  # lazy: the module is imported by the bench harness before torch is needed

    uniform = {n: t for n, t in [*model.named_parameters(), *model.named_buffers()]
               if t.is_floating_point() and _one_value(t)}
    total = sum(t.numel() * t.element_size() for _, t in [*model.named_parameters(), *model.named_buffers()])
    if not uniform or total > 4 * MODULE_LIMIT:    # a model too big to hand its weights to an op: not built twice
        return set()
    try:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(torch.initial_seed() ^ 0x5EED)
            twin = type(model)(*copy.deepcopy(init))
        other = dict([*twin.named_parameters(), *twin.named_buffers()])
    except Exception:        # a module that is not built from its init arguments (a staged op's graph module)
        return set()
    return {n for n, t in uniform.items() if n in other and not torch.equal(other[n].detach(), t.detach())}


def module_tensor_items(model: Any, init: list) -> list[tuple[str, Any]]:
    """``module_tensors`` with their names (``conv.weight``), for a planner naming the op's inputs."""
    inits = [t for t in init if hasattr(t, "is_floating_point")]
    drawn = drawn_at_random(model, init)
    out = []
    for name, t in [*model.named_parameters(), *model.named_buffers()]:
        if not t.is_floating_point() or (_one_value(t) and name not in drawn):
            continue
        if any(c.shape == t.shape and c.dtype == t.dtype and bool(c.detach().equal(t.detach())) for c in inits):
            continue
        out.append((name, t.detach().clone()))
    return out
