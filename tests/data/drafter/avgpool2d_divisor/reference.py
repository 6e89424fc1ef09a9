"""kgen drafter suite: 2-D average pooling with a divisor override."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=2, divisor_override=3)

    def forward(self, x):
        return self.pool(x)
