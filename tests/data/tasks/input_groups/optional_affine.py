"""Team-written reference in MultiKernelBench's NPUKernelBench-level layout: a layer norm whose weight and bias
are optional forward inputs; some cases pass None for one or both (the op declares them OPTIONAL and the host
chooses the kernel by which are present), the normalised shape a list argument of one or two dimensions (two
cases of rank 4 tell them apart only by the weight's rank), in float32, float16 and bfloat16, rows aligned and
not."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, normalized_shape: list, weight: torch.Tensor = None,
                bias: torch.Tensor = None) -> torch.Tensor:
        return nn.functional.layer_norm(x, normalized_shape, weight=weight, bias=bias, eps=1e-5)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "optional_affine.json")) as f:
        for case in map(json.loads, filter(str.strip, f)):
            x, normalized, weight, bias = case["inputs"]
            dt = dtypes[x["dtype"]]
            groups.append([torch.randn(x["shape"], dtype=dt), normalized["value"],
                           None if weight.get("absent") else torch.randn(weight["shape"], dtype=dt),
                           None if bias.get("absent") else torch.randn(bias["shape"], dtype=dt)])
    return groups


def get_init_inputs():
    return []
