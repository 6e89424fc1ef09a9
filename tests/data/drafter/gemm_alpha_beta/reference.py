"""kgen drafter suite: gemm_alpha_beta."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """BLAS GEMM, alpha scaling the left operand as it is often written: (alpha * a) @ b + beta * c, alpha and beta
    one-value tensors (the factor is applied to the fp32 product)."""

    def forward(self, a, b, c, alpha, beta):
        return torch.matmul(alpha * a, b) + beta * c
