"""kgen drafter suite: a linear layer, a sum over the features kept as a column, then reductions over that column
(a max, a log-sum-exp: each of one value)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        s = self.fc(x).sum(dim=1, keepdim=True)
        m, _ = s.max(dim=1, keepdim=True)
        return torch.logsumexp(m, dim=1, keepdim=True) * 0.5
