"""kgen drafter suite: pick rows of a matrix by an index vector."""
import torch


class Model(torch.nn.Module):
    def forward(self, x, idx):
        return torch.index_select(x, 0, idx)
