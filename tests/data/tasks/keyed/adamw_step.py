"""Team-written: one AdamW step whose step count is a one-element tensor read with .item(), the settings forward
arguments, amsgrad returning the running maximum as a fourth result (NPUKernelBench's optimizer layout)."""
import json
import os

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, param, grad, exp_avg, exp_avg_sq, step, max_sq, lr: float, beta1: float, beta2: float,
                weight_decay: float, eps: float, amsgrad: bool):
        t = step.item() + 1
        param = param * (1 - lr * weight_decay)
        exp_avg = exp_avg * beta1 + grad * (1 - beta1)
        exp_avg_sq = exp_avg_sq * beta2 + grad * grad * (1 - beta2)
        bias1 = 1 - beta1 ** t
        bias2 = 1 - beta2 ** t
        if amsgrad:
            max_sq = torch.maximum(max_sq, exp_avg_sq)
            denom = (max_sq / bias2).sqrt() + eps
        else:
            denom = (exp_avg_sq / bias2).sqrt() + eps
        param = param - (lr / bias1) * exp_avg / denom
        return (param, exp_avg, exp_avg_sq, max_sq) if amsgrad else (param, exp_avg, exp_avg_sq)


def get_input_groups():
    dtypes = {"float32": torch.float32, "float16": torch.float16}
    groups = []
    with open(os.path.join(os.path.dirname(__file__), "adamw_step.json")) as f:
        for line in f:
            if not line.strip():
                continue
            ins = json.loads(line)["inputs"]
            shape, dtype = ins[0]["shape"], dtypes[ins[0]["dtype"]]
            param, grad = torch.randn(shape, dtype=dtype), torch.randn(shape, dtype=dtype)
            m, v = torch.randn(shape, dtype=dtype) * 0.1, torch.rand(shape, dtype=dtype) * 0.1
            groups.append([param, grad, m, v, torch.tensor([ins[4]["value"]]), v + torch.rand(shape, dtype=dtype) * 0.01,
                           *[a["value"] for a in ins[6:]]])
    return groups


def get_init_inputs():
    return []
