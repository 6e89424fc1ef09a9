"""kgen drafter suite: the functional batch norm with no running statistics and no affine parameters, on float16
tensors (PyTorch accumulates in float and keeps the mean and 1/std in float16)."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, x):
        return F.batch_norm(x, None, None, training=True, eps=1e-4)
