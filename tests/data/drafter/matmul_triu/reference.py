"""kgen drafter suite: matmul_triu."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """The upper triangle of a product (KernelBench's triangular matmul kind): torch.triu of the matmul."""

    def forward(self, a, b):
        return torch.triu(torch.matmul(a, b))
