import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    text = param.get("value", "1")
    value = text == "true" if dtype == torch.bool else (int(text) if dtype == torch.int32 else float(text))
    return [shape, torch.tensor(value, dtype=dtype, device=device)]


def get_init_inputs(param, device=None):
    return []
