import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    x = torch.randn(shape, dtype=dtype, device=device)
    gamma = torch.rand(shape[-1], dtype=dtype, device=device) + 0.5
    beta = torch.randn(shape[-1], dtype=dtype, device=device)
    return x, gamma, beta


def get_init_inputs(param, device=None):
    return []
