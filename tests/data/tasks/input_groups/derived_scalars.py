"""Team-written reference in MultiKernelBench's NPUKernelBench-level layout: numbers computed in Python from the
forward's float arguments before they meet a tensor (``-beta``, ``gain * beta``, ``1 - gain``, ``beta * gain *
0.5``), a mode flag choosing the formula, float16 computed in float32 (another code path). The cases give the
arguments zeros, -1 and equal values."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, beta: float, gain: float, keep: bool) -> torch.Tensor:
        dtype = x.dtype
        if dtype == torch.float16:
            x = x.float()
        if keep:
            y = x * torch.sigmoid(-beta * x) * (gain * beta) + (1 - gain)
        else:
            y = torch.where(x > 0, x * gain, x * (beta * gain * 0.5))
        return y.to(dtype)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "derived_scalars.json")) as f:
        for case in map(json.loads, filter(str.strip, f)):
            x, beta, gain, keep = case["inputs"]
            groups.append([torch.randn(x["shape"], dtype=dtypes[x["dtype"]]) * 3, float(beta["value"]),
                           float(gain["value"]), bool(keep["value"])])
    return groups


def get_init_inputs():
    return []
