import torch
import torch.nn as nn


class Model(nn.Module):
    """Written by the kgen team: masked_scale with its `scale` attribute handed to forward as a one-element
    tensor after the input tensors (as NPUKernelBench's Gemm passes alpha/beta, which its test_cases.csv
    does not list): y = x * scale where the bool mask is set, else 0."""

    def forward(self, x: torch.Tensor, mask: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        return torch.where(mask, x * scale, torch.zeros_like(x))


N = 1000


def get_inputs():
    g = torch.Generator().manual_seed(11)
    return [torch.randn(N, generator=g), torch.rand(N, generator=g) > 0.4, torch.tensor([-1.75])]


def get_init_inputs():
    return []
