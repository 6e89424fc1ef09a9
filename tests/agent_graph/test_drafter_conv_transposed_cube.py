"""Transposed convolutions on the cube (``convcube.py``): the transposed im2col matrix times the weight read as
``[OC, C * k..]`` is ``F.conv_transpose``; 1-D, 2-D and 3-D transposed convolutions (stride, padding, output
padding, dilation; module weights and forward ones) drafted, built and verified on the emulator in fp32, fp16 and
bf16, the weight rearranged by the kernel itself; a staged op whose first stage is one."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.convcube import Geometry, im2col_transposed
from tests.agent_graph.drafter_checks import assert_verified, write_reference

TRANSPOSED = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _triple(v: tuple, fill: int) -> tuple:
    return (fill,) * (3 - len(v)) + tuple(v)


@pytest.mark.parametrize("x_shape, k, stride, pad, dil, out_pad", [
    ((2, 3, 5, 7), (3, 4), (2, 1), (1, 2), (1, 2), (1, 0)),
    ((2, 3, 9), (5,), (3,), (2,), (1,), (2,)),
    ((1, 2, 3, 4, 5), (2, 3, 3), (2, 2, 1), (0, 1, 1), (1, 1, 2), (1, 1, 0)),
])
def test_transposed_im2col_times_the_weight_is_conv_transpose(x_shape, k, stride, pad, dil, out_pad):
    """Column o of row (c, tap) holds x[c, i] where o = i * stride - padding + tap * dilation (else 0): the weight
    [C, OC, k..] as [OC, C * k..] times it is PyTorch's transposed convolution, output padding included."""
    rank = len(k)
    x, w = torch.randn(x_shape), torch.randn(x_shape[1], 4, *k)
    want = TRANSPOSED[rank](x, w, stride=stride, padding=pad, dilation=dil, output_padding=out_pad)
    g = Geometry(rank, _triple(stride, 1), _triple(pad, 0), _triple(dil, 1), 0, False, True, _triple(out_pad, 0))
    col = im2col_transposed(x, k, g)
    a = w.reshape(x_shape[1], 4, -1).permute(1, 0, 2).reshape(4, -1)
    torch.testing.assert_close((a @ col).reshape(want.shape), want, rtol=1e-5, atol=1e-5)


def test_transposed_im2col_by_hand():
    """A 1-D case written out: stride 2, padding 1, kernel 3 over [1, 2, 3]: output o reads x[(o + 1 - t) / 2]."""
    x = torch.tensor([[[1.0, 2.0, 3.0]]])
    g = Geometry(1, (1, 1, 2), (0, 0, 1), (1, 1, 1), 0, False, True)
    # outputs: (3 - 1) * 2 - 2 + 2 + 1 = 5; tap 0 reads o + 1 = 2i, tap 1 reads o = 2i, tap 2 reads o - 1 = 2i
    assert im2col_transposed(x, (3,), g).tolist() == [[[0.0, 2.0, 0.0, 3.0, 0.0],
                                                       [1.0, 0.0, 2.0, 0.0, 3.0],
                                                       [0.0, 1.0, 0.0, 2.0, 0.0]]]


def _verified_on_cube(spec: Path, tmp_path: Path, template: str = "cube") -> str:
    d = assert_verified(spec, tmp_path)
    assert d.plan.template == template
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "PrepareWeight();" in kernel and "Im2Col();" in kernel and "constexpr bool TRANSPOSED = true;" in kernel
    return kernel


@pytest.mark.parametrize("init, forward, inputs, args", [
    # nn.ConvTranspose2d (module weight [C, OC, k, k] and bias), stride 2, padding, output padding, odd sizes
    ("self.ct = nn.ConvTranspose2d(8, 16, 3, stride=2, padding=1, output_padding=1)", "torch.tanh(self.ct(x)) * 2.0",
     "torch.randn(2, 8, 9, 11)", "x"),
    # functional, weight and bias as forward inputs, fp16, three row phases, dilation along the width
    ("", "torch.relu(F.conv_transpose2d(x, w, b, stride=(3, 2), padding=(1, 0), dilation=(1, 2)))",
     "torch.randn(2, 6, 7, 10).half(), (torch.randn(6, 12, 3, 3) * 0.2).half(), torch.randn(12).half()", "x, w, b"),
])
def test_conv_transpose2d_on_the_cube(tmp_path, init, forward, inputs, args):
    _verified_on_cube(write_reference(tmp_path, forward, inputs, init, args), tmp_path)


def test_conv_transpose1d_and_3d_on_the_cube(tmp_path):
    """A bf16 1-D transposed convolution with its silu, and a 3-D one without bias, per-axis output padding."""
    ref1 = write_reference(tmp_path, "F.silu(self.c(x))", "torch.randn(3, 10, 77).to(torch.bfloat16)",
                           "self.c = nn.ConvTranspose1d(10, 24, 4, stride=2, padding=1).to(torch.bfloat16)")
    _verified_on_cube(ref1, tmp_path)
    d3 = tmp_path / "d3"
    d3.mkdir()
    ref3 = write_reference(d3, "self.c(x) * 0.5", "torch.randn(1, 4, 3, 5, 6)",
                           "self.c = nn.ConvTranspose3d(4, 8, (2, 3, 3), stride=2, padding=(0, 1, 1), "
                           "output_padding=(1, 0, 1), bias=False)")
    _verified_on_cube(ref3, d3)


def test_staged_first_stage_is_a_transposed_convolution_on_the_cube(tmp_path):
    """A transposed convolution, gelu, then a group norm: the first stage is the cube's, the norm a second stage."""
    ref = write_reference(tmp_path, "self.gn(F.gelu(self.ct(x)))", "torch.randn(2, 8, 10, 12)",
                          "self.ct = nn.ConvTranspose2d(8, 16, 4, stride=2, padding=1); self.gn = nn.GroupNorm(4, 16)")
    kernel = _verified_on_cube(ref, tmp_path, template="staged")
    assert "(im2col + matmul on the cube) -> gelu" in kernel


def test_module_tensors_the_product_does_not_read_stay_op_inputs(tmp_path):
    """The harness passes every module tensor: the transposed weight (the product reads its rearranged copy) and a
    parameter the forward never uses (MultiKernelBench's ``bias_shape`` parameter) are op inputs in the harness's
    order (the module's own parameters first); the kernel's Init takes only what it reads."""
    ref = write_reference(tmp_path, "torch.sigmoid(self.ct(x)) + 1.0", "torch.randn(2, 6, 8, 9)",
                          "self.ct = nn.ConvTranspose2d(6, 10, 3, stride=2); self.bias = nn.Parameter(torch.randn(10, 1, 1))")
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    assert [p.name for p in d.plan.params.inputs] == ["x", "bias", "ct_weight", "ct_bias"]
    kernel = _verified_on_cube(ref, tmp_path)
    assert "op.Init(x, ct_weight, ct_bias, y, GetUserWorkspace(workspace), td, &pipe);" in kernel
