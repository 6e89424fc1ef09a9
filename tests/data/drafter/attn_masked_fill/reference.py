"""kgen drafter suite: attn_masked_fill (bmm on [B*H, S, D], divided by sqrt(d), causal via masked_fill(tril == 0))."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, q, k, v):
        d = q.shape[-1]
        s = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d)
        n, m = s.shape[-2:]
        causal = torch.tril(torch.ones(n, m, device=s.device))
        s = s.masked_fill(causal == 0, float("-inf"))
        return torch.bmm(s.softmax(dim=-1), v)
