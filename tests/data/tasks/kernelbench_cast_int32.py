import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: float32 to int32 (dst = 3, ge::DT_INT32).
    The op project cast_out declares float32 -> float16 first and float32 -> int32 second."""

    def forward(self, x: torch.Tensor, dst: int) -> torch.Tensor:
        return x.to(torch.int32)


def get_inputs():
    return [torch.randn(40, generator=torch.Generator().manual_seed(3)) * 50, 3]


def get_init_inputs():
    return []
