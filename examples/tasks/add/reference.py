"""kgen example task: elementwise add."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x + y
