import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1, 1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    c = shape[1]
    return (torch.randn(shape, dtype=dtype, device=device), torch.rand(c, dtype=dtype, device=device) + 0.5,
            torch.randn(c, dtype=dtype, device=device))


def get_init_inputs(param, device=None):
    return [int(param.get("num_groups", 1)), float(param.get("eps", 1e-5))]
