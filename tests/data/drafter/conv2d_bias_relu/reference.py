"""kgen drafter suite: convolution, relu, then a scale (a fused epilogue)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout, scale):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3)
        self.scale = scale

    def forward(self, x):
        return F.relu(self.conv(x)) * self.scale
