"""kgen drafter suite: 2-D max pooling with a rectangular window, per-dimension stride, padding and dilation."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return F.max_pool2d(x, kernel_size=(3, 2), stride=(2, 1), padding=(1, 0), dilation=(2, 1), ceil_mode=True)
