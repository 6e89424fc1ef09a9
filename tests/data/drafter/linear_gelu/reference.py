"""kgen drafter suite: linear_gelu."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, weight, bias):
        return F.gelu(F.linear(x, weight, bias))
