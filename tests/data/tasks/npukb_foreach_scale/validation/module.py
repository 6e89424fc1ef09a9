from typing import List

import torch
import torch_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference (kgen team test task): every tensor of the list scaled by a one-element tensor."""

    def forward(self, xs: List[torch.Tensor], scalar: torch.Tensor) -> List[torch.Tensor]:
        return [(x.float() * scalar.float()).to(x.dtype) for x in xs]


class ModelNew(nn.Module):
    def forward(self, xs: List[torch.Tensor], scalar: torch.Tensor) -> List[torch.Tensor]:
        return kernel_gen_ops.foreach_scale(tuple(xs), scalar)
