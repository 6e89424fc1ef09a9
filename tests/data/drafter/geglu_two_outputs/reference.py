"""kgen drafter suite: GeGLU returning the gate too (the NPU GeGluV2 operator's outputs): the halves of the
last dimension read as two windows of the input."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, approximate: str = "tanh"):
        super().__init__()
        self.approximate = approximate

    def forward(self, x):
        gate, up = x.chunk(2, dim=-1)
        g = F.gelu(gate, approximate=self.approximate)
        return [g * up, g]
