import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: x + bias where the optional bias is None
    (the op project add_opt_bias declares it OPTIONAL)."""

    def forward(self, x: torch.Tensor, bias=None) -> torch.Tensor:
        return x if bias is None else x + bias


def get_inputs():
    return [torch.randn(40, generator=torch.Generator().manual_seed(8)), None]


def get_init_inputs():
    return []
