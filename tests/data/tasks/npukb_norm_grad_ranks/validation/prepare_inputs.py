import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    normalized = eval(param.get("normalized_shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    x = (torch.randn(shape, device=device) * 2 + 0.5).to(dtype)
    grad = torch.randn(shape, device=device).to(dtype)
    weight = (torch.rand(normalized, device=device) + 0.5).to(dtype)
    row = tuple(range(len(shape) - len(normalized), len(shape)))
    xf = x.float()
    mean = xf.mean(dim=row, keepdim=True)
    rstd = torch.rsqrt(xf.var(dim=row, unbiased=False, keepdim=True) + 1e-5)
    return grad, x, mean, rstd, weight


def get_init_inputs(param, device=None):
    return [eval(param.get("normalized_shape", "[1]"))]
