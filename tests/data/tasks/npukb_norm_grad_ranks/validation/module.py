import math

import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference: a layer norm's backward over `normalized_shape` (one or two trailing dimensions) from the saved
    mean and reciprocal deviation: the input's gradient per row, the weight's and bias's summed over the rows."""

    def __init__(self, normalized_shape: list):
        super().__init__()
        self.normalized_shape = list(normalized_shape)

    def forward(self, grad: torch.Tensor, x: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor,
                weight: torch.Tensor):
        k = len(self.normalized_shape)
        row = [-(i + 1) for i in range(k)]
        n = math.prod(self.normalized_shape)
        xhat = (x.float() - mean) * rstd
        g = grad.float() * weight.float()
        g_sum = g.sum(row, keepdim=True)
        gx_sum = (g * xhat).sum(dim=row, keepdim=True)
        dx = rstd * (g - g_sum / n - xhat * gx_sum * (1.0 / n))
        lead = tuple(range(x.dim() - k))
        return dx.to(x.dtype), torch.sum(grad.float() * xhat, dim=lead), grad.float().sum(lead)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: list):
        super().__init__()
        self.normalized_shape = list(normalized_shape)

    def forward(self, grad, x, mean, rstd, weight):
        return kernel_gen_ops.norm_grad_ranks(grad, x, mean, rstd, weight)
