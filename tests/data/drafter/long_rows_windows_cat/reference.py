"""kgen drafter suite: GeGLU with a second result concatenating two gated pieces, on rows longer than the
Unified Buffer holds: the split-row path streams each window of x and each piece of the concatenated output
chunk by chunk."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, y):
        a, b = x.chunk(2, -1)
        g = F.gelu(a, approximate="tanh")
        return [g * b, torch.cat([g * y, b - y], -1)]
