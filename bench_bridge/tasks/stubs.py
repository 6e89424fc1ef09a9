"""Stand-ins that let NPU-flavoured reference files run on the CPU.

Reference files import ``torch_npu`` (and ``torch_npu.contrib.transfer_to_npu``) and the op's own
``kernel_gen_ops`` binding; none exist here. ``install()`` registers permissive stub modules so the
imports succeed; ``kernel_gen_ops`` records the first call a ``ModelNew`` makes (the argument order
of the operator) and stops it.
"""
from __future__ import annotations

import sys
import types
from typing import Any


class _Anything(types.ModuleType):
    """A module whose every attribute is another harmless stub; calling it returns None."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        child = _Anything(f"{self.__name__}.{name}")
        setattr(self, name, child)
        return child

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        if self.__name__.rsplit(".", 1)[-1].startswith("npu_"):
            NPU_OPS_CALLED.append(self.__name__)
        return None


NPU_OPS_CALLED: list[str] = []
"""The torch_npu operators (``torch_npu.npu_*``) a reference called since the last :func:`npu_only_ops`: they
have no CPU implementation, the stub returns None."""


def npu_only_ops() -> list[str]:
    """The distinct ``torch_npu.npu_*`` operators called since the last call (and forget them)."""
    out = list(dict.fromkeys(NPU_OPS_CALLED))
    NPU_OPS_CALLED.clear()
    return out


def npu_only_message(ops: list[str]) -> str:
    """One sentence for a reference that computes with NPU-only operators."""
    return (f"the reference computes with {', '.join(ops)}, an NPU-only operator (torch_npu) that has no CPU "
            "implementation: kgen checks kernels against a reference that runs on the CPU (write its math in PyTorch ops)")


class RecordedCall(Exception):
    """Raised by the kernel_gen_ops stub to stop ModelNew once the operator call is recorded."""

    def __init__(self, name: str, args: tuple, kwargs: dict):
        super().__init__(name)
        self.name = name
        self.args_ = args
        self.kwargs = kwargs


class _Recorder(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)

        def op(*args: Any, **kwargs: Any) -> None:
            raise RecordedCall(name, args, kwargs)

        return op


def install() -> None:
    """Register the stubs (idempotent) and make ``Tensor.npu()`` a no-op on the CPU."""
    import torch  # optional: torch (a task's reference needs it; importing this module must not: 2.7 s)

    if "torch_npu" not in sys.modules or not isinstance(sys.modules["torch_npu"], _Anything):
        npu = _Anything("torch_npu")
        sys.modules["torch_npu"] = npu
        sys.modules["torch_npu.contrib"] = npu.contrib
        sys.modules["torch_npu.contrib.transfer_to_npu"] = npu.contrib.transfer_to_npu
        sys.modules["torch_npu.npu"] = npu.npu
    sys.modules["kernel_gen_ops"] = _Recorder("kernel_gen_ops")
    if not getattr(torch.randn, "kgen_integer_draws", False):
        torch.randn = _any_dtype_draw(torch.randn)
    if not getattr(torch.rand, "kgen_integer_draws", False):
        torch.rand = _any_dtype_draw(torch.rand)
    if not hasattr(torch.Tensor, "npu"):
        torch.Tensor.npu = lambda self, *a, **k: self  # type: ignore[attr-defined]
    if not hasattr(torch, "npu"):
        torch.npu = sys.modules["torch_npu"].npu  # type: ignore[attr-defined]


def _any_dtype_draw(draw):
    """``torch.randn`` / ``torch.rand`` that also serve integer and bool dtypes. On the CPU torch refuses
    them ("normal_kernel_cpu" / "check_uniform_bounds" not implemented for 'Int'); task generators written
    for the NPU ask for them (Equal's randn on int8, ClipByValue's rand on int32). Assumption, not a
    documented NPU rule: the draw is made in float32 with the same generator and truncated toward zero to
    the requested dtype, so randn gives small integers around 0 and rand gives zeros (``rand(...) * 9 + 1``
    is then all ones)."""
    import torch  # optional: torch (see install)

    def wrapped(*args, **kwargs):
        dtype = kwargs.get("dtype")
        if dtype is not None and not dtype.is_floating_point and not dtype.is_complex:
            kwargs["dtype"] = torch.float32
            return draw(*args, **kwargs).to(dtype)
        return draw(*args, **kwargs)

    wrapped.kgen_integer_draws = True  # type: ignore[attr-defined]
    return wrapped

