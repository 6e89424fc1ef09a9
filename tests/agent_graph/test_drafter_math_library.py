"""Unary functions the AscendC math library computes by name (Acos, Asin, Atan, Tan, Cosh, Sinh, Erfc, Log2, Log10,
Asinh, Acosh, Atanh): reached from torch functions, tensor methods and their arc* spellings, verified on the emulator
against PyTorch in float32 and float16; and the mish gradient ATen op a reference may call by name."""
import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference

CASES = {
    # inputs kept inside each function's domain: x in (-1, 1) for acos/asin/atanh, x >= 1 for acosh
    "inverse_trig": ("torch.acos(x) + x.asin() * torch.arctan(x)", "torch.rand(9, 70) * 1.8 - 0.9"),
    "hyperbolic_half": ("torch.cosh(x) - torch.sinh(x).mul(torch.tan(x))", "(torch.rand(3, 33) * 2 - 1).half()"),
    "logs_and_erfc": ("torch.log2(x) + torch.log10(x) * torch.erfc(x)", "torch.rand(130) * 4 + 0.1"),
    "inverse_hyperbolic": ("torch.asinh(x) + torch.acosh(x + 2.0) - torch.atanh(x * 0.5)", "torch.rand(4, 5, 6) * 1.8 - 0.9"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_math_library_functions_verify(name, tmp_path):
    body, inputs = CASES[name]
    d = assert_verified(write_reference(tmp_path, body, inputs), tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    names = {"inverse_trig": ("Acos(", "Asin(", "Atan("), "hyperbolic_half": ("Cosh(", "Sinh(", "Tan("),
             "logs_and_erfc": ("Log2(", "Log10(", "Erfc("), "inverse_hyperbolic": ("Asinh(", "Acosh(", "Atanh(")}[name]
    assert all(n in kernel for n in names), names


def test_the_mish_gradient_op_is_computed_in_float_and_rounded_once(tmp_path):
    # torch.ops.aten.mish_backward (NPUKernelBench's MishBackward writes the ATen op itself): the export keeps it
    # ("core op aten.mish_backward is not covered" before); bfloat16, x over both sides of the softplus threshold
    ref = write_reference(tmp_path, "torch.ops.aten.mish_backward(g, x)",
                          "torch.randn(19, 37).bfloat16(), (torch.randn(19, 37) * 12).bfloat16()", sig="g, x")
    d = assert_verified(ref, tmp_path)
    assert [n.op for n in d.plan.graphs[0].nodes] == ["mish_backward"]
