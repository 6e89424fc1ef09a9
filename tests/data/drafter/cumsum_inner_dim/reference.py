"""kgen drafter suite: a running sum down the rows of each matrix (dim=-2), as a method call."""
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.cumsum(dim=-2)
