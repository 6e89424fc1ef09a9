"""kgen drafter suite: nearest upsampling by 2 with nn.Upsample."""
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x):
        return self.up(x)
