"""kgen drafter suite: layer_norm with weight and bias."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w, b):
        return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)
