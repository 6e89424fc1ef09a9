"""kgen example task: softmax over the last dimension of a float16 [B, 4096] tensor."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)
