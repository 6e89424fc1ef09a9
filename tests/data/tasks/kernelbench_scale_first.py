import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: only the first output (x * scale) of an op
    that also returns sum(x); the other output's shape comes from the op's InferShape."""

    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale


def get_inputs():
    return [torch.randn(300, generator=torch.Generator().manual_seed(11))]


def get_init_inputs():
    return [-1.5]
