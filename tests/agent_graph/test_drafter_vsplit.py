"""Vector stages of a staged op (``agent_graph/drafter/vsplit.py``): where the rest of a graph after a convolution
or matmul is cut, and the C++ shape of a stage's result the host lays out, checked against PyTorch's own shapes on
sizes other than the traced ones. The kernels themselves are verified by the drafter suite's staged references
(staged_conv_pool_channelsum, staged_linear_bn_softmax, staged_conv_gn_residual_lse)."""
from __future__ import annotations

import re

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from agent_graph.drafter.vsplit import cut_points, result_dims, shape_code


class _Pool(nn.Module):
    def forward(self, x):
        return F.max_pool2d(x, 3, stride=2, padding=1)


class _CeilPool(nn.Module):
    def forward(self, x):
        return F.avg_pool2d(x, 3, stride=2, ceil_mode=True)


class _Pool3dMean(nn.Module):
    def forward(self, x):
        return F.avg_pool3d(torch.sigmoid(x), 2).mean(dim=1, keepdim=True)


class _NormResidualLse(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.GroupNorm(2, 4)

    def forward(self, c):
        return torch.logsumexp(torch.tanh(self.norm(c)) + c, dim=1)


def _evaluate(dims: list[str], shape: tuple[int, ...]) -> list[int]:
    """The C++ expressions evaluated in Python (FloorDiv is floor division for a positive divisor)."""
    env = {f"in0_d{d}": v for d, v in enumerate(shape)}
    env["FloorDiv"] = lambda a, b: a // b
    return [eval(re.sub(r"\b(\d+)L\b", r"\1", e), {}, env) for e in dims]


@pytest.mark.parametrize("module, traced, others", [
    (_Pool(), (2, 8, 9, 9), [(1, 3, 16, 7), (4, 2, 5, 12)]),
    (_CeilPool(), (2, 4, 11, 10), [(1, 2, 10, 13), (3, 1, 12, 12)]),
    (_Pool3dMean(), (2, 4, 6, 6, 6), [(1, 3, 8, 5, 7), (2, 2, 4, 9, 4)]),
])
def test_result_dims_match_pytorch_on_other_sizes(module, traced, others):
    dims = result_dims(module, [torch.randn(*traced)])
    assert dims is not None
    for shape in [traced, *others]:
        assert _evaluate(dims, shape) == list(module(torch.randn(*shape)).shape), (dims, shape)


def test_shape_code_reads_only_the_dims_it_uses():
    code = shape_code(["in0_d0", "FloorDiv(in0_d2 - 1, 2) + 1"], "two")
    assert "two.GetInputShape(0)->GetStorageShape().GetDim(2)" in code
    assert "GetDim(1)" not in code and code.count("dims.AppendDim(") == 2


def test_cuts_after_a_norm_and_before_a_channel_reduction():
    """A group norm's result and the residual add feeding a log-sum-exp over channels are where stages may end;
    the last op is never a cut."""
    cuts = cut_points(_NormResidualLse(), [torch.randn(2, 4, 5, 5)])
    assert cuts[0].startswith("getitem")     # the norm's first result
    assert cuts[-1].startswith("add")        # the input of the log-sum-exp
    assert not any(c.startswith("logsumexp") for c in cuts)


def test_checked_dims_keep_a_batch_the_export_specialised():
    """A group norm's reshape makes torch.export fix the batch of the traced case; the dims the host writes must
    still follow every case's input (a wrong constant here wrote a 3-sample result into a 2-sample intermediate)."""
    from types import SimpleNamespace
    from agent_graph.drafter.vsplit import checked_dims
    norm = nn.GroupNorm(4, 8)
    heads = [SimpleNamespace(module=norm, inputs=[torch.randn(*s)]) for s in ((2, 8, 10, 10), (3, 8, 7, 9))]
    dims = checked_dims(heads)
    assert dims is not None and dims[0] == "in0_d0"
    for h in heads:
        assert _evaluate(dims, tuple(h.inputs[0].shape)) == list(h.inputs[0].shape)
