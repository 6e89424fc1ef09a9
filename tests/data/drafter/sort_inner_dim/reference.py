"""kgen drafter suite: the 4 smallest values along dim 1 of a 3-D tensor and where they are."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        values, indices = torch.topk(x, 4, dim=1, largest=False)
        return values, indices
