"""kgen drafter suite: 3-D max pooling, functional form, ceil mode."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return F.max_pool3d(x, kernel_size=(2, 3, 3), stride=2, ceil_mode=True)
