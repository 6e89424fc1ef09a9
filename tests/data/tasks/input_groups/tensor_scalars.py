"""Team-written reference in MultiKernelBench's NPUKernelBench-level layout: forward floats made 0-d tensors of
the input's dtype (``torch.as_tensor(alpha, dtype=x.dtype)``, ``x.new_tensor(beta)``), which torch.export lifts as
constant tensors. Each case has its own values; in float16 they round as PyTorch rounds them."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, alpha: float = 1.0, beta: float = 0.5) -> torch.Tensor:
        a = torch.as_tensor(alpha, dtype=x.dtype, device=x.device)
        b = x.new_tensor(beta)
        return torch.where(x > 0, a * b * x, b * (torch.exp(x) - 1))


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "tensor_scalars.json")) as f:
        for case in map(json.loads, filter(str.strip, f)):
            x, alpha, beta = case["inputs"]
            groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]), alpha["value"], beta["value"]])
    return groups


def get_init_inputs():
    return []
