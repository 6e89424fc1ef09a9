"""Team-written: a scaled tanh whose mode changes from case to case and with it the number of results (one in
"static" mode, the normalised values and their row maxima in "dynamic" mode; NPUKernelBench layout:
scale_mode.json). The mode chooses the kernel; the op declares both results."""
import json
import os
from typing import List

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, scale: torch.Tensor, mode: str = "static") -> List[torch.Tensor]:
        y = torch.tanh(x.float()) * scale.float()
        if mode == "static":
            return [y.to(x.dtype)]
        peak = torch.amax(y.abs(), dim=-1, keepdim=True)
        return [(y / (peak + 1e-6)).to(x.dtype), peak]


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "scale_mode.json")) as f:
        for line in f:
            if line.strip():
                x, scale, mode = json.loads(line)["inputs"]
                groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]) * 2,
                               torch.rand(scale["shape"], dtype=dtypes[scale["dtype"]]) + 0.5, mode["value"]])
    return groups


def get_init_inputs():
    return []
