"""kgen drafter suite: a group norm whose scale and shift are forward inputs (two vector stages: the plain
group norm, then the per-channel scale and shift)."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def __init__(self, groups: int = 4):
        super().__init__()
        self.groups = groups

    def forward(self, x, gamma, beta):
        return F.group_norm(x, self.groups, gamma, beta, eps=1e-5)
