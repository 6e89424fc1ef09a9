import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    # a few distinct values: every row holds ties, among them and at the k-th place
    x = (torch.randint(-6, 7, shape, device=device) * 0.25).to(dtype)
    return x, int(param.get("k", 1)), int(param.get("dim", -1))


def get_init_inputs(param, device=None):
    return []
