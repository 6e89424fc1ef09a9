import torch


def get_inputs(param, device=None):
    return (torch.randn([int(param.get("n", 1000))], dtype=torch.float32, device=device),)


def get_init_inputs(param, device=None):
    return []
