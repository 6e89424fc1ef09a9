import torch
import torch.nn as nn


class Model(nn.Module):
    """c = a @ b per batch (torch.matmul; b may be [1, K, N]): products summed in fp32 (as the cube unit does),
    the result rounded once to the input type."""

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a.double(), b.double()).to(a.dtype)
