"""kgen drafter suite: a strided convolution without bias."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, in_ch: int, out_ch: int):
        super().__init__()
        self.body = nn.Conv2d(in_ch, out_ch, 3, stride=2, padding=1, bias=False)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.body(image)
