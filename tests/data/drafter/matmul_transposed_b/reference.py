"""kgen drafter suite: matmul_transposed_b."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w):
        return x @ w.t()
