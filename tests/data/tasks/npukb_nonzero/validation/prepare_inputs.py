import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[8]"))
    x = torch.randint(0, 2, shape, device=device).to(getattr(torch, param.get("dtype", "float32")))
    return [x]


def get_init_inputs(param, device=None):
    return []
