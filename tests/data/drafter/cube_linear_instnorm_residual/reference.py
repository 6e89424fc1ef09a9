"""kgen drafter suite: a linear layer, an instance norm applied to the result viewed as [B, 1, 1, F] (its
statistics run over the features, as a layer norm's), then a residual add and a product with the second input,
whose name is the one the op's output would take."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.InstanceNorm2d(out_features)

    def forward(self, x, y):
        h = self.linear(x)
        h = self.norm(h.unsqueeze(1).unsqueeze(1)).squeeze(1).squeeze(1)
        return (h + y) * y
