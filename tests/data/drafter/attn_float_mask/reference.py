"""kgen drafter suite: attn_float_mask (an additive float mask passed to forward, one per batch, shared by heads)."""
import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, q, k, v, bias):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias
        return torch.softmax(scores, dim=-1) @ v
