import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("shapes", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    xs = [torch.randn(s, device=device).to(dtype) for s in shapes]
    return xs, [torch.tensor(0.5 + k, device=device) for k in range(len(shapes))]


def get_init_inputs(param, device=None):
    return []
