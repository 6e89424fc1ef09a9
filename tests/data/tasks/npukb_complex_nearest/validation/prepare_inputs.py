import torch


def get_inputs(param, device=None):
    n = int(param.get("length", 1))
    x = torch.complex(torch.randn(n, device=device), torch.randn(n, device=device))
    return (x,)


def get_init_inputs(param, device=None):
    return [int(param.get("count", 1))]
