import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    x1 = torch.randn(shape, dtype=dtype, device=device)
    x2 = torch.randn(shape, dtype=dtype, device=device)
    return x1, x2, float(param.get("alpha", 1.0))


def get_init_inputs(param, device=None):
    return []
