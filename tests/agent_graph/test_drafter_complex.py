"""complex64 tensors as their real and imaginary parts (``complexparts.py``; NPUKernelBench's ComplexMatDot, AbsMath,
Icamax/Icamin kind): the pairs are taken apart by GatherMask as a tile is copied in (``operands.PairInput``), a
complex result is interleaved again by Gather (``operands.PairOutput``). Drafted, built and verified on the emulator
against PyTorch's complex arithmetic; what has no rewrite is refused naming the core op."""
from pathlib import Path

import torch

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.canonical import analyse_canonical
from tests.agent_graph.drafter_checks import assert_verified, write_reference

TASKS = Path(__file__).resolve().parents[1] / "data" / "tasks"
PAIRS = "torch.complex(torch.randn({0}), torch.randn({0}))"


def _kernel(d) -> str:
    return next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))


def _host(d) -> str:
    return next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))


def test_the_parts_of_a_complex_product_are_real_ops():
    class Model(torch.nn.Module):
        def forward(self, a, b):
            return torch.abs(a * b.conj())

    a, b = (torch.complex(torch.randn(5, 3), torch.randn(5, 3)) for _ in range(2))
    g = analyse_canonical(Model(), [a, b])
    assert [n.dtype for n in g.inputs] == ["complex64", "complex64"]
    ops = {n.op for n in g.nodes}
    assert {"part", "mul", "sub", "add", "neg", "sqrt"} <= ops <= {"part", "mul", "sub", "add", "neg", "sqrt", "identity"}
    assert all(n.dtype == "float32" for n in g.nodes)


def test_a_complex_product_with_a_real_factor_verifies_as_pairs(tmp_path):
    # (a * conj(b)) - 0.5 a on [33, 7]: products, a conjugate and a real factor; the result is complex64
    ref = write_reference(tmp_path, "torch.mul(a, b.conj()) - a * 0.5", f"{PAIRS.format('33, 7')}, {PAIRS.format('33, 7')}",
                          sig="a, b")
    d = assert_verified(ref, tmp_path)
    kernel, host = _kernel(d), _host(d)
    assert "GatherMask(XI0p0, xt0, REDUCEV2_MODE_ONE" in kernel and "GatherMask(XI0p1, xt0, REDUCEV2_MODE_TWO" in kernel
    assert "Gather(yt0, parts0, po0_.Get<uint32_t>(), 0, 2 * cnt);" in kernel
    assert "using TI0 = float;   // complex64 'a': (real, imag) float pairs" in kernel
    assert host.count("ge::DT_COMPLEX64") == 3


def test_the_nearest_element_of_a_complex_prefix_is_found_by_position(tmp_path):
    # team task: argmin of |re| + |im| over x[:count] (some cases a prefix), looked up in torch.arange(count)
    d = assert_verified(TASKS / "npukb_complex_nearest", tmp_path)
    assert "PrefixContext" in _host(d) and "arange" not in _kernel(d)


def test_real_and_complex_cases_of_one_op_share_a_keyed_project(tmp_path):
    # team task: |x| * gain for float16, float32 and complex64 x (a float32 modulus)
    d = assert_verified(TASKS / "npukb_complex_magnitude", tmp_path)
    kernel = _kernel(d)
    assert "TILING_KEY_IS(2)" in kernel and "ORIG_DTYPE_X != DT_COMPLEX64" in kernel


def test_a_complex_division_is_refused_naming_the_core_op(tmp_path):
    ref = write_reference(tmp_path, "a / b", f"{PAIRS.format('8')}, {PAIRS.format('8')}", sig="a, b")
    d = draft(ref)
    assert isinstance(d, Unsupported) and "aten.div on complex64" in str(d)


def test_complex_sums_per_row_and_over_the_whole_tensor_verify(tmp_path):
    # a complex made of two real inputs, scaled by a Python complex, summed per row: (real, imag) per row
    rows = write_reference(tmp_path, "(torch.complex(a, b) * (0.5 - 1j)).sum(-1)", "torch.randn(8, 300), torch.randn(8, 300)",
                           sig="a, b")
    d = assert_verified(rows, tmp_path / "rows")
    assert "RO0.SetValue(2 * r + 1," in _kernel(d)
    # torch.vdot: sum(conj(x) * y), one complex value
    whole = write_reference(tmp_path, "torch.vdot(x, y)", f"{PAIRS.format('1000')}, {PAIRS.format('1000')}", sig="x, y")
    d = assert_verified(whole, tmp_path / "whole")
    assert "DataCopyPad(yg0_, oh0, DataCopyExtParams{1, 2 * sizeof(float), 0, 0, 0});" in _kernel(d)


def test_pairs_returned_as_floats_and_a_complex_norm(tmp_path):
    # torch.view_as_real(z): the pairs as stored, float32 [..., 2]
    ref = write_reference(tmp_path, "torch.view_as_real(x * y.conj())", f"{PAIRS.format('5, 96')}, {PAIRS.format('5, 96')}",
                          sig="x, y")
    d = assert_verified(ref, tmp_path)
    assert "ge::DT_FLOAT}" in _host(d).split('Output("')[1]

    class Norm(torch.nn.Module):
        def forward(self, x):
            return torch.linalg.vector_norm(x, dim=-1)

    g = analyse_canonical(Norm(), [torch.complex(torch.randn(4, 9), torch.randn(4, 9))])
    assert {n.op for n in g.nodes} == {"part", "mul", "add", "sum", "sqrt"}
