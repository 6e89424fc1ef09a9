"""kgen drafter suite: scatter a source into columns (method call, dim as a keyword)."""
import torch


class Model(torch.nn.Module):
    def forward(self, x, idx, src):
        return x.scatter(dim=1, index=idx, src=src)
