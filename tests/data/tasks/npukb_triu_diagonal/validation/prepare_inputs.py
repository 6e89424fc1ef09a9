import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1, 1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    if dtype.is_floating_point:
        x = torch.randn(shape, device=device).to(dtype)
    else:
        x = torch.randint(-1000, 1000, shape, device=device, dtype=dtype)
    return x, int(param.get("diagonal", 0))


def get_init_inputs(param, device=None):
    return []
