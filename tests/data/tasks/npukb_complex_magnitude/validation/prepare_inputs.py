import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    if dtype.is_complex:
        return (torch.complex(torch.randn(shape, device=device), torch.randn(shape, device=device)),)
    return (torch.randn(shape, device=device).to(dtype),)


def get_init_inputs(param, device=None):
    return [float(param.get("gain", 1.0))]
