"""kgen drafter suite: a grouped convolution with a rectangular kernel and different strides per axis."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, cin, cout, groups):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel_size=(3, 2), stride=(2, 1), padding=(1, 0), groups=groups)

    def forward(self, x):
        return self.conv(x)
