"""kgen drafter suite: a dilated convolution, weight and bias given to forward."""
import torch.nn.functional as F
from torch import nn


class Model(nn.Module):
    def forward(self, x, weight, bias):
        return F.conv2d(x, weight, bias, padding=2, dilation=2)
