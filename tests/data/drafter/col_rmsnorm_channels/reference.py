"""kgen drafter suite: an RMS norm over dimension 1 of a 4-D tensor (the channels), eps kept by the module: a
norm over an inner dimension (square, mean over the channels, + eps, sqrt, then x divided by it)."""
import torch


class Model(torch.nn.Module):
    def __init__(self, eps: float = 1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        rms = x.pow(2).mean(dim=1, keepdim=True).add(self.eps).sqrt()
        return x / rms


def get_init_inputs():
    return []
