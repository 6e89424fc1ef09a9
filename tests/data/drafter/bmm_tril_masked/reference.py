"""kgen drafter suite: bmm_tril_masked."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """A scaled batched product with everything above the k-th diagonal filled with zeros through a registered
    bool buffer (masked_fill), the way a causal block is often written."""

    def __init__(self, n, k):
        super().__init__()
        self.register_buffer("upper", torch.ones(n, n, dtype=torch.bool).triu(k + 1))

    def forward(self, q, kt):
        s = torch.bmm(q, kt) * 0.125
        return s.masked_fill(self.upper, 0.0)
