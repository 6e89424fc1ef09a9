import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("shapes", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    tensors = [torch.randn(s, device=device).to(dtype) for s in shapes]
    return tensors, torch.linspace(-2.0, 3.0, len(shapes), device=device)


def get_init_inputs(param, device=None):
    return []
