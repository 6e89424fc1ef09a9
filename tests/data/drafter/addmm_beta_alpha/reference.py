"""kgen drafter suite: addmm_beta_alpha."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, bias, a, b):
        return torch.addmm(bias, a, b, beta=0.5, alpha=2.0)
