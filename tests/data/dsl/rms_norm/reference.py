"""tile DSL example: RMS norm without a weight, written with functionals."""
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).to(x.dtype)
