"""kgen drafter suite: attn_gqa_bf16 (grouped-query attention written out: key/value heads broadcast to the
query heads with expand + reshape, scale a module attribute, causal by a boolean triangle)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, head_dim: int = 32):
        super().__init__()
        self.scale = head_dim ** -0.5

    def forward(self, q, k, v):
        b, h, s, d = q.shape
        hk = k.shape[1]
        k = k[:, :, None].expand(b, hk, h // hk, k.shape[2], d).reshape(b, h, k.shape[2], d)
        v = v[:, :, None].expand(b, hk, h // hk, v.shape[2], d).reshape(b, h, v.shape[2], d)
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        keep = torch.ones(s, k.shape[2], dtype=torch.bool).tril()
        scores = torch.where(keep, scores, torch.full_like(scores, float("-inf")))
        return torch.matmul(torch.softmax(scores, dim=-1), v)
