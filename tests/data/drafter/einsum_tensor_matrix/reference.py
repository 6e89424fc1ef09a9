"""kgen drafter suite: a 4-D tensor contracted with a matrix over its last dimension, written as an einsum."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, w):
        return torch.einsum("nchw,wk->nchk", a, w)
