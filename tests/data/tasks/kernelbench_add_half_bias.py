import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: a float32 x plus a float16 bias (the
    mixed precision BatchNormV3's reference hands its op). The op project add_opt_bias declares float32
    for both inputs: the bench widens the bias exactly and the sum is float32."""

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return x + bias.float()


def get_inputs():
    g = torch.Generator().manual_seed(9)
    return [torch.randn(40, generator=g), torch.randn(40, generator=g).half()]


def get_init_inputs():
    return []
