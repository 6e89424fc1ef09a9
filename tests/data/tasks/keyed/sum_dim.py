"""Team-written: torch.sum over a dimension and keepdim that change from case to case (NPUKernelBench layout)."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, dim: int, keepdim: bool = False) -> torch.Tensor:
        return torch.sum(x, dim=dim, keepdim=keepdim)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "sum_dim.json")) as f:
        for line in f:
            if line.strip():
                x, dim, keep = json.loads(line)["inputs"]
                groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]), dim["value"], keep["value"]])
    return groups


def get_init_inputs():
    return []
