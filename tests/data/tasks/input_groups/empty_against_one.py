"""Team-written reference in MultiKernelBench's NPUKernelBench-level layout: a tensor against a one-value tensor
y of shape [1], where some cases' x is empty (a dimension of 0: the result is empty, though y has more elements)."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.floor_divide(x, y) + x


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "empty_against_one.json")) as f:
        for case in map(json.loads, filter(str.strip, f)):
            x, y = case["inputs"]
            groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]) * 8,
                           torch.rand(y["shape"], dtype=dtypes[y["dtype"]]) + 0.5])
    return groups


def get_init_inputs():
    return []
