"""Team-written reference in MultiKernelBench's NPUKernelBench-level layout: a row-wise op (log-softmax over
the last dimension) whose cases include a 0-d tensor first and a tensor with no rows ([0, 16])."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=-1)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16}
    with open(os.path.join(os.path.dirname(__file__), "row_edge_shapes.json")) as f:
        return [[torch.randn(c["inputs"][0]["shape"], dtype=dtypes[c["inputs"][0]["dtype"]])]
                for c in map(json.loads, filter(str.strip, f))]


def get_init_inputs():
    return []
