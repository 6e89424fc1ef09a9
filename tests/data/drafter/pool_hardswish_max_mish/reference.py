"""kgen drafter suite: elementwise ops before and after a max pool (shift + hardswish, then mish and a scale),
written with modules: the pool template's prologue on each input row and epilogue on each output row."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, shift):
        super().__init__()
        self.shift = shift
        self.act = nn.Hardswish()
        self.pool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.mish = nn.Mish()

    def forward(self, x):
        return self.mish(self.pool(self.act(x - self.shift))) * 2.0
