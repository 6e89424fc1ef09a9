"""kgen drafter suite: attn_mha_split (heads split from [B, S, H*D] by view/transpose, causal by a tril buffer)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_HEAD = 4
MAX_LEN = 128


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.n_head = N_HEAD
        self.register_buffer("bias", torch.tril(torch.ones(MAX_LEN, MAX_LEN)).view(1, 1, MAX_LEN, MAX_LEN))

    def forward(self, q, k, v):
        B, T, C = q.size()
        hd = C // self.n_head
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        return y.transpose(1, 2).contiguous().view(B, T, C)
