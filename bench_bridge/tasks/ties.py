"""Indices of equal values: ``torch.topk`` leaves the order of ties unspecified.

PyTorch's CPU ``topk`` picks among equal values by ``std::partial_sort`` or ``std::nth_element`` (which of
the two depends on k and the row length), so which of several equal values' positions it returns is an
accident of that algorithm, not a rule a kernel can follow (an NPU kernel that sorts stably returns the first
position; the CPU may return the last). A float16 row of a few hundred random values holds ties often: a
correct top-k kernel would fail on them by position alone.

So the reference run records, for every returned tensor that is the indices of a ``topk`` call, the tensor the
call read and its dimension. The check then takes a kernel's indices as correct when they pick the same values
the reference's pick (``x.gather(dim, got) == x.gather(dim, want)``, bit for bit) and no position twice in a
row: the same answer up to the order of ties. Values outputs are compared as before.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bench_bridge import tensorio

TIE_OPS = ("topk",)


class TopkRecorder:
    """A dispatch mode recording each ``aten.topk`` call's input, dimension and indices tensor (by identity)."""

    def __init__(self) -> None:
        import torch  # optional: torch (the reference worker has it)
        from torch.utils._python_dispatch import TorchDispatchMode  # optional: torch

        calls: list[tuple[Any, int, Any]] = []
        self.calls = calls

        class _Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, a=(), kw=None):
                kw = kw or {}
                res = func(*a, **kw)
                if getattr(func, "overloadpacket", None) is not None and func.overloadpacket.__name__ in TIE_OPS:
                    x = a[0]
                    dim = kw.get("dim", a[2] if len(a) > 2 else -1)
                    if isinstance(x, torch.Tensor) and x.dim() > 0:
                        calls.append((x, int(dim) % x.dim(), res[1]))
                return res

        self.mode = _Mode()

    def __enter__(self) -> "TopkRecorder":
        self.mode.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.mode.__exit__(*exc)

    def source_of(self, t: Any) -> tuple[Any, int] | None:
        """(input, dim) of the topk whose indices tensor ``t`` is; None when it is no such tensor."""
        return next(((x, d) for x, d, idx in self.calls if idx is t), None)


def tie_equivalent(want: np.ndarray, got: np.ndarray, x: np.ndarray, dim: int) -> str:
    """'' when ``got`` picks the same values of ``x`` along ``dim`` as ``want`` does, each position once per row;
    otherwise why not (one sentence)."""
    got = np.asarray(got).reshape(want.shape).astype(np.int64)
    want = np.asarray(want).astype(np.int64)
    n = x.shape[dim]
    if got.size and (got.min() < 0 or got.max() >= n):
        return f"an index out of range 0..{n - 1}"
    picked, wanted = np.take_along_axis(x, got, dim), np.take_along_axis(x, want, dim)
    same = (picked == wanted) | (np.isnan(picked) & np.isnan(wanted))
    if not same.all():
        at = [int(i) for i in np.argwhere(~same)[0]]
        return f"indices{at} picks {float(picked[tuple(at)]):g}, the reference's pick is {float(wanted[tuple(at)]):g}"
    ordered = np.sort(got, axis=dim)
    if ordered.shape[dim] > 1 and (np.diff(ordered, axis=dim) == 0).any():
        return "a position picked twice in one row"
    return ""


def load_source(meta: dict, cdir: Path) -> tuple[np.ndarray, int] | None:
    """The recorded topk input (as float64 values) and dimension of a reference output, if it has one."""
    ties = meta.get("ties")
    if not ties:
        return None
    raw = tensorio.load(cdir / ties["file"])
    return np.asarray(tensorio.as_float(raw, ties["dtype"]), dtype=np.float64).reshape(ties["shape"]), int(ties["dim"])
