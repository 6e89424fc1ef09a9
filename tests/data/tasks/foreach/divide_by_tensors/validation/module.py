from typing import List

import torch
import torch_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference (kgen team test task): a list divided by a list of 0-d float32 tensors (a 0-d tensor does not
    promote the result: float16 stays float16)."""

    def forward(self, xs: List[torch.Tensor], divisors: List[torch.Tensor]) -> List[torch.Tensor]:
        return [torch.div(x, d) for x, d in zip(xs, divisors)]


class ModelNew(nn.Module):
    def forward(self, xs: List[torch.Tensor], divisors: List[torch.Tensor]) -> List[torch.Tensor]:
        return kernel_gen_ops.foreach_divide_by_tensors(xs, divisors)
