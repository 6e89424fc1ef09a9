"""Team-written reference in MultiKernelBench's NPUKernelBench-level layout: the cases come from
get_input_groups(), which reads scaled_sum.json (one case a line); `scale` is a forward argument."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor, scale: float) -> torch.Tensor:
        return torch.tanh(a) + b * scale


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "scaled_sum.json")) as f:
        for line in f:
            if not line.strip():
                continue
            a, b, scale = json.loads(line)["inputs"]
            groups.append([torch.randn(a["shape"], dtype=dtypes[a["dtype"]]),
                           torch.randn(b["shape"], dtype=dtypes[b["dtype"]]), scale["value"]])
    return groups


def get_init_inputs():
    return []
