"""kgen drafter suite: nn.ConvTranspose3d (stride 2), plus a per-channel bias parameter, then hardswish."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.up = nn.ConvTranspose3d(cin, cout, kernel_size=3, stride=2, padding=1, bias=False)
        self.bias = nn.Parameter(torch.randn(cout, 1, 1, 1) * 0.1)

    def forward(self, x):
        return F.hardswish(self.up(x) + self.bias)
