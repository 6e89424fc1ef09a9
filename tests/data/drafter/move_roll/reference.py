"""kgen drafter suite: torch.roll of two dimensions, one shift negative and longer than the dimension."""
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        return torch.roll(x, shifts=(2, -45), dims=(0, -1))
