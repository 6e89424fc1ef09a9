"""kgen drafter suite: elu(alpha=1.5)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.elu(x, alpha=1.5)
