"""kgen drafter suite: diag_scale_matmul."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """diag(d) @ x @ diag(e): rows scaled by d, columns by e (each product has one nonzero term per output)."""

    def forward(self, d, x, e):
        return torch.diag(d) @ (x @ torch.diag_embed(e))
