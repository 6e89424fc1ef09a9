import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: y = x * scale where the bool mask is set, else 0."""

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.where(mask, x * self.scale, torch.zeros_like(x))


N = 1000


def get_inputs():
    g = torch.Generator().manual_seed(7)
    return [torch.randn(N, generator=g), torch.rand(N, generator=g) > 0.4]


def get_init_inputs():
    return [2.5]
