"""kgen drafter suite: min values over the last dim."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return torch.min(x, dim=-1)[0]
