"""kgen drafter suite: sum over the last dim."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return x.sum(dim=-1)
