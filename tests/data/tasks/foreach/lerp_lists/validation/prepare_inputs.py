import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("shapes", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    starts = [torch.randn(s, device=device).to(dtype) for s in shapes]
    ends = [torch.randn(s, device=device).to(dtype) for s in shapes]
    return starts, ends, float(param.get("weight", 0.5))


def get_init_inputs(param, device=None):
    return []
