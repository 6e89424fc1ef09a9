"""kgen drafter suite: y = x1 + alpha * x2 (runtime attr)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x1, x2, alpha: float):
        return x1 + alpha * x2
