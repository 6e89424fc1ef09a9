"""kgen drafter suite: a linear layer scaled per feature, then a batch norm in training mode over the batch and a
ReLU: the matmul and its scale as a first stage, the batch norm and the ReLU as a second."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = nn.Parameter(torch.rand(out_features) + 0.5)
        self.bn = nn.BatchNorm1d(out_features)

    def forward(self, x):
        return torch.relu(self.bn(self.linear(x) * self.scale))
