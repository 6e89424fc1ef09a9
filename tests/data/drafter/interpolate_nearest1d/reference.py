"""kgen drafter suite: 1-D nearest resize by a fractional factor."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=1.7)
