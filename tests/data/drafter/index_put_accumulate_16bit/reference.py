"""kgen drafter suite: index_put_ with accumulate=True on 16-bit tensors, many duplicate indices: PyTorch adds in
the tensor's own type, so every partial sum is rounded (the kernel must round the same way)."""
import torch


class Model(torch.nn.Module):
    def forward(self, x, idx, values):
        return x.index_put_((idx,), values, accumulate=True)
