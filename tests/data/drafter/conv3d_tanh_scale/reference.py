"""kgen drafter suite: nn.Conv3d with per-axis kernel/stride/padding, tanh, and a module scale of one value."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, kernel_size=(3, 2, 3), stride=(1, 2, 1), padding=(1, 0, 1))
        self.scale = nn.Parameter(torch.full((cout, 1, 1, 1), 0.75))   # one value: written into the kernel

    def forward(self, x):
        return torch.tanh(self.conv(x)) * self.scale
