import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference: 1 + the index of the smallest |re| + |im| among the first `count` elements of x."""

    def __init__(self, count: int):
        super().__init__()
        self.count = count

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        head = x.narrow(0, 0, self.count)
        size = head.real.abs().add(torch.abs(head.imag))
        positions = torch.arange(self.count, device=x.device)
        return (positions[size.argmin()] + 1).int()


class ModelNew(nn.Module):
    def __init__(self, count: int):
        super().__init__()
        self.count = count

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return kernel_gen_ops.complex_nearest(x, self.count)
