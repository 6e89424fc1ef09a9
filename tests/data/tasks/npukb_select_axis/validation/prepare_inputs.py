import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    dim = int(param.get("dim", 0))
    x = (torch.randn(shape, device=device) * 8).to(dtype)
    index = torch.randint(0, shape[dim], (int(param.get("picks", 1)),), dtype=torch.int64, device=device)
    return x, torch.tensor(dim, dtype=getattr(torch, param.get("dim_dtype", "int64")), device=device), index


def get_init_inputs(param, device=None):
    return []
