"""kgen drafter suite: RMS norm written out by hand (divide by the root mean square) over a last dim
too long for the UB."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, weight):
        return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * weight
