import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x1: torch.Tensor, x2: torch.Tensor, alpha: float) -> torch.Tensor:
        return (x1.float() + alpha * x2.float()).to(x1.dtype)
