"""kgen drafter suite: adaptive average pooling to a fixed grid that divides the input."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((2, 3))

    def forward(self, x):
        return self.pool(x)
