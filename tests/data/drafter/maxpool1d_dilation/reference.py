"""kgen drafter suite: 1-D max pooling with dilation."""
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size=3, stride=2, padding=1, dilation=2):
        super().__init__()
        self.maxpool = nn.MaxPool1d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x):
        return self.maxpool(x)
