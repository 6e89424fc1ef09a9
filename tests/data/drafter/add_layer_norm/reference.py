"""kgen drafter suite: layer_norm(x + residual) (add + norm fusion)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, residual, w, b):
        return F.layer_norm(x + residual, (x.shape[-1],), w, b, 1e-5)
