import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[1]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    return tuple(torch.randn(shape, dtype=dtype, device=device) for _ in range(3))


def get_init_inputs(param, device=None):
    return [float(param.get("lr", 0.01)), float(param.get("momentum", 0.9)), float(param.get("decay", 0.0)),
            int(param.get("mode", 0)), str(param.get("nesterov", "False")) == "True"]
