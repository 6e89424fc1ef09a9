"""kgen drafter suite: an outer product written with unsqueeze (no input has the output's shape: the longer
vector becomes one value per row, the other a row broadcast over the rows)."""
import torch.nn as nn


class Model(nn.Module):
    def forward(self, u, v):
        return u.unsqueeze(1) * v.unsqueeze(0) * 0.5 + 1.0
