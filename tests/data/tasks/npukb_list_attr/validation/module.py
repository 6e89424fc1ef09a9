from typing import List, Optional

import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference: an RMS norm over the last len(normalized_shape) dimensions, a weight, an optional shift."""

    def __init__(self, normalized_shape: List[int], weight: torch.Tensor, eps: float):
        super().__init__()
        self.normalized_shape = normalized_shape
        self.weight = nn.Parameter(weight.float(), requires_grad=False)   # the binding passes it as it was given
        self.eps = eps

    def forward(self, x: torch.Tensor, shift: Optional[torch.Tensor]) -> torch.Tensor:
        dims = tuple(range(x.dim() - len(self.normalized_shape), x.dim()))
        h = x.float()
        y = h * torch.rsqrt(h.pow(2).mean(dim=dims, keepdim=True) + self.eps) * self.weight
        if shift is not None:
            y = y + shift.float()
        return y.to(x.dtype)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: List[int], weight: torch.Tensor, eps: float):
        super().__init__()
        self.normalized_shape = normalized_shape
        self.weight = weight
        self.eps = eps

    def forward(self, x: torch.Tensor, shift: Optional[torch.Tensor]) -> torch.Tensor:
        return kernel_gen_ops.shifted_rms_norm(x, shift, tuple(self.normalized_shape), self.weight, self.eps)
