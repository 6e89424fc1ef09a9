"""kgen drafter suite: F.pad of the last two dimensions with a constant (-1.5), a crop on one side."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return F.pad(x, (3, 2, -1, 1), mode="constant", value=-1.5)
