"""Team-written: GELU whose approximation changes from case to case (NPUKernelBench layout: gelu_mode.json)."""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x: torch.Tensor, approximate: str = "none") -> torch.Tensor:
        return F.gelu(x, approximate=approximate)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "gelu_mode.json")) as f:
        for line in f:
            if line.strip():
                x, mode = json.loads(line)["inputs"]
                groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]) * 3, mode["value"]])
    return groups


def get_init_inputs():
    return []
