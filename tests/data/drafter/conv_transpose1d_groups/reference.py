"""kgen drafter suite: F.conv_transpose1d with the weight and bias as inputs, groups 2, stride 3, dilation 2."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x, weight, bias):
        return torch.sigmoid(F.conv_transpose1d(x, weight, bias, stride=3, padding=2, dilation=2, groups=2))
