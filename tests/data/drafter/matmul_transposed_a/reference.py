"""kgen drafter suite: matmul_transposed_a."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a.transpose(0, 1), b).sigmoid()
