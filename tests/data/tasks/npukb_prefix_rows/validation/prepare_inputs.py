import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1, 1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    x = torch.randn(shape, device=device).to(dtype)
    w = torch.randn(shape[-1:], device=device).to(dtype)
    return x, w


def get_init_inputs(param, device=None):
    return [int(param.get("rows", 1)), 1.0]
