"""kgen drafter suite: row_vector_matmul."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w, b):
        return F.leaky_relu(x @ w + b, negative_slope=0.2)
