"""kgen drafter suite: in-place row assignment, the way a cache update is often written."""
import torch


class Model(torch.nn.Module):
    def forward(self, cache, slots, new_rows):
        cache[slots] = new_rows
        return cache
