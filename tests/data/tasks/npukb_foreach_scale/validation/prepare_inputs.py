import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("shapes", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    xs = [torch.randn(s, dtype=dtype, device=device) for s in shapes]
    scalar = torch.tensor([float(param.get("scalar", 1.0))], dtype=torch.float32, device=device)
    return xs, scalar


def get_init_inputs(param, device=None):
    return []
