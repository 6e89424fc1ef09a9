"""kgen drafter suite: layer_norm with weight and bias over a last dim too long for the UB."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, weight, bias):
        return F.layer_norm(x, (x.shape[-1],), weight, bias, 1e-5)
