"""kgen drafter suite: 2x bilinear upsampling with the functional call (half-pixel centres)."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
