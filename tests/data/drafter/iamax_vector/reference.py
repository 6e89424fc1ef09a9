"""kgen drafter suite: BLAS-style i?amax over a whole 1-D tensor (argmax with no dim), counted from 1."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return (torch.argmax(x.abs()) + 1).to(torch.int32)
