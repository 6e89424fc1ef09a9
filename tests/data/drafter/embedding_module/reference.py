"""kgen drafter suite: a token-embedding layer that owns its table (nn.Embedding), vocabulary and width given to __init__."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, vocab: int, width: int):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.tok(ids)
