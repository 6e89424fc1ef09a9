"""Team-written: an add whose second operand is broadcast in some cases only (NPUKernelBench layout)."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor, alpha: float = 1.0) -> torch.Tensor:
        return torch.add(x, y, alpha=alpha)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "add_bcast.json")) as f:
        for line in f:
            if line.strip():
                x, y, alpha = json.loads(line)["inputs"]
                groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]),
                               torch.randn(y["shape"], dtype=dtypes[y["dtype"]]), alpha["value"]])
    return groups


def get_init_inputs():
    return []
