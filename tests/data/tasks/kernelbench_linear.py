import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: a linear layer y = x @ W^T + b, non-aligned sizes."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return F.linear(x, weight, bias)


def get_inputs():
    return [torch.randn(150, 97), torch.randn(70, 97), torch.randn(70)]


def get_init_inputs():
    return []
