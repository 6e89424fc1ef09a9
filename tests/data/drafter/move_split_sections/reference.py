"""kgen drafter suite: torch.split with split_size_or_sections a forward argument: an int in one case, a list in another."""
import torch


class Model(torch.nn.Module):
    def forward(self, x, split_size_or_sections, dim: int = 0):
        return torch.split(x, split_size_or_sections, dim=dim)
