"""kgen drafter suite: clamp to [-0.5, 0.5]."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return torch.clamp(x, -0.5, 0.5)
