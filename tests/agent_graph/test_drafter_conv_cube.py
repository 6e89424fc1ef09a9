"""Convolutions on the cube (template cube with an im2col phase, ``convcube.py``): the im2col matrix against
PyTorch's own ``F.unfold``; 1-D, 2-D and 3-D convolutions of one group with their epilogues drafted, built and
verified on the emulator in fp32, fp16 and bf16; the forms that stay on the vector template."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.convcube import Geometry, im2col
from tests.agent_graph.drafter_checks import assert_verified, write_reference


@pytest.mark.parametrize("shape, k, stride, pad, dil", [
    ((2, 3, 9, 11), (3, 3), (1, 1), (1, 1), (1, 1)),
    ((1, 4, 12, 7), (3, 2), (2, 1), (0, 2), (2, 1)),
    ((2, 2, 5, 16), (1, 5), (1, 3), (0, 2), (1, 2)),
])
def test_im2col_is_unfold(shape, k, stride, pad, dil):
    """Row ((c * KH + ky) * KW + kx), column (oy * OW + ox): what F.unfold computes, padding read as 0."""
    x = torch.randn(shape)
    g = Geometry(2, (1, *stride), (0, *pad), (1, *dil), 0, False)
    want = F.unfold(x, k, dilation=dil, padding=pad, stride=stride)
    assert torch.equal(im2col(x, k, g), want)


def test_im2col_of_1d_and_3d_by_hand():
    """A 1-D im2col written out, and a 3-D one against loops over the definition."""
    x = torch.arange(10.0).reshape(1, 1, 10)
    g1 = Geometry(1, (1, 1, 3), (0, 0, 1), (1, 1, 1), 0, False)
    assert im2col(x, (2,), g1).tolist() == [[[0.0, 2.0, 5.0, 8.0], [0.0, 3.0, 6.0, 9.0]]]   # tap 0 reads 3 * ox - 1
    x3 = torch.randn(1, 2, 4, 5, 6)
    g3 = Geometry(3, (2, 1, 2), (1, 0, 1), (1, 2, 1), 0, False)
    got = im2col(x3, (2, 2, 3), g3)
    xp = F.pad(x3, [1, 1, 0, 0, 1, 1])
    od, oh, ow = (4 + 2 - 2) // 2 + 1, (5 - 2 - 1) // 1 + 1, (6 + 2 - 3) // 2 + 1
    for c in range(2):
        for kz in range(2):
            for ky in range(2):
                for kx in range(3):
                    row = ((c * 2 + kz) * 2 + ky) * 3 + kx
                    for oz in range(od):
                        for oy in range(oh):
                            for ox in range(ow):
                                v = xp[0, c, oz * 2 + kz, oy + ky * 2, ox * 2 + kx]
                                assert got[0, row, (oz * oh + oy) * ow + ox] == v


def _ref(tmp_path: Path, init: str, forward: str, inputs: str, args: str = "x") -> Path:
    return write_reference(tmp_path, forward, inputs, init if init != "pass" else "", args)


def _verified_on_cube(spec: Path, tmp_path: Path) -> str:
    # benched again from the written project's own kgen-task.toml (its cases list the forward's tensors only)
    d = assert_verified(spec, tmp_path, standalone=True)
    assert d.plan.template == "cube" and d.plan.category == "convolution"
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "Im2Col();" in kernel and "SyncAll();" in kernel
    return kernel


@pytest.mark.parametrize("init, forward, inputs, args", [
    # nn.Conv2d's weight and bias (module parameters), a per-channel module scale after the activation
    ("self.conv = nn.Conv2d(6, 20, 3, padding=1); self.s = nn.Parameter(torch.randn(20, 1, 1))",
     "F.gelu(self.conv(x)) * self.s + 0.25", "torch.randn(2, 6, 14, 19)", "x"),
    # functional, weight and bias as forward inputs, stride and dilation, fp16
    ("pass", "torch.relu(F.conv2d(x, w, b, stride=(2, 1), padding=2, dilation=(1, 2)))",
     "torch.randn(2, 5, 17, 21).half(), torch.randn(24, 5, 3, 3).half() * 0.2, torch.randn(24).half()", "x, w, b"),
    # a residual of the output's shape, bf16, no bias
    ("self.mix = nn.Conv2d(16, 16, 3, padding=1, bias=False).to(torch.bfloat16)",
     "torch.tanh(self.mix(x) + x)", "torch.randn(1, 16, 12, 13).to(torch.bfloat16)", "x"),
])
def test_conv2d_with_epilogues_on_the_cube(tmp_path, init, forward, inputs, args):
    _verified_on_cube(_ref(tmp_path, init, forward, inputs, args), tmp_path)


def test_conv1d_and_conv3d_on_the_cube(tmp_path):
    """A 1-D convolution (a sequence of 150) and a 3-D one with per-axis stride and padding, both with a bias."""
    ref1 = _ref(tmp_path, "self.c = nn.Conv1d(12, 32, 5, stride=2, padding=2)", "F.silu(self.c(x))",
                "torch.randn(3, 12, 150)")
    kernel = _verified_on_cube(ref1, tmp_path)
    assert "constexpr int32_t STRIDE_D = 1, STRIDE_H = 1, STRIDE_W = 2;" in kernel
    d3 = tmp_path / "d3"
    d3.mkdir()
    ref3 = _ref(d3, "self.c = nn.Conv3d(3, 16, (2, 3, 3), stride=(1, 2, 1), padding=(0, 1, 1))", "self.c(x) * 0.5",
                "torch.randn(1, 3, 5, 9, 10)")
    _verified_on_cube(ref3, d3)


@pytest.mark.parametrize("init, forward, inputs, args", [
    ("self.c = nn.Conv2d(16, 32, 1)", "torch.relu(self.c(x))", "torch.randn(2, 16, 20, 23)", "x"),
    ("pass", "torch.sigmoid(F.conv2d(x, w, b))",
     "torch.randn(1, 12, 17, 9).half(), torch.randn(24, 12, 1, 1).half() * 0.3, torch.randn(24).half()", "x, w, b"),
    ("self.c = nn.Conv3d(8, 16, 1).to(torch.bfloat16)", "self.c(x) * 0.5",
     "torch.randn(1, 8, 4, 6, 10).to(torch.bfloat16)", "x"),
])
def test_a_pointwise_convolution_reads_its_input_in_place(tmp_path, init, forward, inputs, args):
    """A 1 x 1 convolution with stride 1 and no padding: its im2col matrix is the input itself, [N, C, H * W], so
    the product's B is x read in place: no im2col phase, no SyncAll, no workspace of its own (2-D and 3-D, module
    and functional weights, fp32/fp16/bf16)."""
    d = assert_verified(_ref(tmp_path, init, forward, inputs, args), tmp_path, standalone=True)
    assert d.plan.template == "cube" and d.plan.category == "convolution"
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "Im2Col" not in kernel and "SyncAll" not in kernel and "GetUserWorkspace" not in kernel, kernel
    assert "1 x 1: its input read in place" in kernel and "x is read in place" in host


def test_a_pointwise_kernel_takes_only_what_it_reads(tmp_path):
    """A parameter the forward never uses is an op input (the harness passes it) but not an argument of Init."""
    ref = _ref(tmp_path, "self.c = nn.Conv2d(16, 32, 1); self.scale = nn.Parameter(torch.randn(32, 1, 1))",
               "torch.relu(self.c(x))", "torch.randn(2, 16, 20, 23)")
    d = assert_verified(ref, tmp_path)
    assert [p.name for p in d.plan.params.inputs] == ["x", "scale", "c_weight", "c_bias"]
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "op.Init(x, c_weight, c_bias, y, td, &pipe);" in kernel, kernel


def test_a_strided_pointwise_convolution_keeps_its_im2col(tmp_path):
    """With a stride the input is not the matrix (every other position): the im2col phase stays."""
    _verified_on_cube(_ref(tmp_path, "self.c = nn.Conv2d(8, 16, 1, stride=2)", "self.c(x)", "torch.randn(2, 8, 30, 31)"),
                      tmp_path)


@pytest.mark.parametrize("init, forward, inputs, why", [
    ("self.c = nn.Conv2d(8, 16, 3, groups=2)", "self.c(x)", "torch.randn(2, 8, 12, 12)", "groups"),
    ("self.c = nn.ConvTranspose2d(8, 16, 3, groups=2)", "self.c(x)", "torch.randn(2, 8, 12, 12)", "transposed, groups"),
    ("self.c = nn.Conv2d(2, 3, 3)", "self.c(x)", "torch.randn(1, 2, 6, 6)", "too small for the cube"),
])
def test_the_vector_template_keeps(tmp_path, init, forward, inputs, why):
    """Grouped convolutions (transposed or not), and one too small to pay for the im2col phase, stay on the vector
    unit (template conv)."""
    d = draft(_ref(tmp_path, init, forward, inputs))
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == "conv", why
