"""kgen drafter suite: a 1-D convolution over a sequence."""
from torch import nn


class Model(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size=5, stride=2, padding=2)

    def forward(self, seq):
        return self.conv(seq)
