import torch


def get_inputs(param, device=None):
    n = int(param.get("n", 1000))
    x = torch.randn([n], dtype=torch.float32, device=device)
    y = torch.randn([n], dtype=torch.float32, device=device)
    return x, y, float(param.get("alpha", 1.0))


def get_init_inputs(param, device=None):
    return []
