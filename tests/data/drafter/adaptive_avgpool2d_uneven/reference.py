"""kgen drafter suite: adaptive average pooling to a grid that does not divide the input (overlapping windows)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, output_size=(3, 5)):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(output_size)

    def forward(self, x):
        return self.pool(x)
