"""kgen drafter suite: global average pooling as a classifier head does it."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gap = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.gap(x)
