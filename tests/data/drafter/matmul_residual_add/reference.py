"""kgen drafter suite: matmul_residual_add."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w, residual):
        y = torch.matmul(x, w)
        return y + residual
