"""kgen drafter suite: matmul_upcast_bias."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """A product of 16-bit matrices computed in float32 (operands cast up first, NPUKernelBench's matmul
    references write it so), plus a bias: the cube's fp32 accumulation of the 16-bit operands, fp32 out."""

    def forward(self, a, b, bias):
        return torch.matmul(a.to(torch.float32), b.float()) + bias.to(torch.float32)
