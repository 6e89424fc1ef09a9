import torch
import torch_npu
from torch_npu.contrib import transfer_to_npu
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference: SGD with momentum; the settings are the model's, the mode and the flag change the math."""

    def __init__(self, lr: float, momentum: float, decay: float, mode: int, nesterov: bool):
        super().__init__()
        self.lr, self.momentum, self.decay = lr, momentum, decay
        self.mode, self.nesterov = mode, nesterov

    def forward(self, param: torch.Tensor, grad: torch.Tensor, buf: torch.Tensor):
        g = grad.float()
        if self.mode == 1:
            g = g + self.decay * param.float()
        b = self.momentum * buf.float() + g
        step = g + self.momentum * b if self.nesterov else b
        p = param.float() - self.lr * step
        return [p.to(param.dtype), b.to(buf.dtype)]


class ModelNew(nn.Module):
    def __init__(self, lr: float, momentum: float, decay: float, mode: int, nesterov: bool):
        super().__init__()
        self.lr, self.momentum, self.decay = lr, momentum, decay
        self.mode, self.nesterov = mode, nesterov

    def forward(self, param: torch.Tensor, grad: torch.Tensor, buf: torch.Tensor):
        return kernel_gen_ops.sgd_momentum(param, grad, buf, self.lr, self.momentum, self.decay, self.mode,
                                           self.nesterov)
