"""The model's own weights a drafted op takes as inputs (no torch import: the tensors bring their methods)."""
from __future__ import annotations

from typing import Any

MODULE_LIMIT = 64 << 20
"""The most bytes of the model's own weights a case hands to the op (nn.Linear's, nn.Embedding's)."""


def module_tensors(model: Any, init: list) -> list:
    """The model's own floating-point parameters and buffers (parameters first, each in module order) that
    are neither tensors given to ``__init__`` nor one value everywhere: a drafted op takes them as inputs
    after the forward and init tensors (``nn.Linear``'s weight and bias), in the order ``torch.export``
    lifts them."""
    return [t for _, t in module_tensor_items(model, init)]


def module_tensor_items(model: Any, init: list) -> list[tuple[str, Any]]:
    """``module_tensors`` with their names (``conv.weight``), for a planner naming the op's inputs."""
    inits = [t for t in init if hasattr(t, "is_floating_point")]
    out = []
    for name, t in [*model.named_parameters(), *model.named_buffers()]:
        flat = t.detach().reshape(-1)
        if not t.is_floating_point() or (flat.numel() and bool((flat == flat[0]).all())):
            continue
        if any(c.shape == t.shape and c.dtype == t.dtype and bool(c.detach().equal(t.detach())) for c in inits):
            continue
        out.append((name, t.detach().clone()))
    return out
