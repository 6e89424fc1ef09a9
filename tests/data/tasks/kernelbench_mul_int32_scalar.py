import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench-format reference written by the kgen team: int32 x times a one-element int32 tensor s.
    The op project mul_int_scalar declares s int64 (as ForeachMulScalarList's OpDef does for the scalars of
    int32 tensors): the bench widens s exactly, so the kernel reads -7 as an int64."""

    def forward(self, x: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
        return x * s


def get_inputs():
    g = torch.Generator().manual_seed(5)
    return [torch.randint(-1000, 1000, (37,), generator=g, dtype=torch.int32), torch.tensor([-7], dtype=torch.int32)]


def get_init_inputs():
    return []
