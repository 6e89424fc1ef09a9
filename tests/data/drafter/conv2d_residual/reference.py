"""kgen drafter suite: a same-size convolution added back to its input (a residual), then tanh."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.mix = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=True)

    def forward(self, x):
        return torch.tanh(self.mix(x) + x)
