"""kgen drafter suite: 2-D max pooling, window 3, stride 2, padding 1 (a ResNet stem)."""
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)
