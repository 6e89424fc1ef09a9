"""kgen drafter suite: the order that sorts each row smallest first (x.argsort, stable)."""
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        return x.argsort(dim=1, stable=True)
