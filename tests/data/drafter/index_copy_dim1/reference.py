"""kgen drafter suite: torch.index_copy along the column dimension."""
import torch


class Model(torch.nn.Module):
    def forward(self, base, idx, cols):
        return torch.index_copy(base, 1, idx, cols)
