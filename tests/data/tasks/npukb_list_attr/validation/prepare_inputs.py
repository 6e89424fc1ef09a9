import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    x = torch.randn(shape, dtype=dtype, device=device)
    shift = None
    if param.get("shift", "None") == "present":
        shift = torch.randn(shape, dtype=dtype, device=device)
    return x, shift


def get_init_inputs(param, device=None):
    normalized = eval(param.get("normalized_shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    weight = torch.rand(normalized, dtype=dtype, device=device) + 0.5
    return [normalized, weight, float(param.get("eps", 1e-6))]
