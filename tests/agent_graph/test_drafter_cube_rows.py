"""The cube template's int8 operands and per-row vectors (NPUKernelBench's QuantMatmul:
``matmul(a.to(int32), b.to(int32)).to(float32) * scale[n] * per_token_scale[m, None]``).

* ``a.to(torch.int32)`` of an int8 operand is the cube's int8 x int8 product accumulated in int32 (the Matmul API's
  C type ``int32_t``); the vector cores take each int32 tile as float (``Cast`` in place, rounding to nearest as
  ``.to(torch.float32)`` does) before the epilogue.
* a tensor of one value per row of the result (``s.unsqueeze(1)``, ``s.view(-1, 1)``, ``s[:, None]``) is a
  per-row vector in the epilogue: each row of a tile takes its row's value (told apart from a per-column vector
  also when M == N).

Drafted, built and verified on the emulator against the references."""
from __future__ import annotations

import re

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified, write_reference

REFS = {
    "int8_dequant_per_token": (
        "torch.matmul(a.to(torch.int32), b.to(torch.int32)).to(torch.float32) * scale.float() * tok.float().unsqueeze(1)",
        "a, b, scale, tok",
        "torch.randint(-16, 17, (37, 70), dtype=torch.int8), torch.randint(-16, 17, (70, 45), dtype=torch.int8), "
        "torch.rand(45).half(), torch.rand(37).half()"),
    "half_row_scale_bias": ("(x @ w) * s.view(-1, 1) + bias", "x, w, s, bias",
                            "torch.randn(33, 64).half(), torch.randn(64, 40).half(), torch.rand(33).half(), "
                            "torch.randn(40).half()"),
    "square_rows_not_columns": ("torch.relu(torch.mm(a, b) - r[:, None])", "a, b, r",
                                "torch.randn(48, 32), torch.randn(32, 48), torch.randn(48)"),
    "batched_rows_per_matrix": ("torch.bmm(x, w) * rs.unsqueeze(-1)", "x, w, rs",
                                "torch.randn(2, 9, 40), torch.randn(2, 40, 30), torch.rand(9)"),
    "int8_bf16_per_token": (
        "(torch.mm(a.to(torch.int32), b.t().to(torch.int32)).float() * tok.float()[:, None]).to(torch.bfloat16)",
        "a, b, tok", "torch.randint(-100, 100, (20, 300), dtype=torch.int8), "
        "torch.randint(-100, 100, (50, 300), dtype=torch.int8), torch.rand(20).to(torch.bfloat16)"),
}


@pytest.mark.parametrize("name", sorted(REFS))
def test_int8_operands_and_per_row_vectors_draft_verified_cube_kernels(name, tmp_path):
    body, sig, inputs = REFS[name]
    d = assert_verified(write_reference(tmp_path, body, inputs, sig=sig), tmp_path)
    assert d.plan.template == "cube"
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert ("using TC = int32_t;" in kernel) == name.startswith("int8")
    if "rows" in name or "per_token" in name or "row_scale" in name:
        assert "% td_->mm.M);" in kernel and re.search(r"GetValue\(row\d \+ k\)", kernel)   # a per-row value for each tile row


def test_an_int8_matmul_returning_its_int32_sums_is_refused_saying_the_dtype(tmp_path):
    ref = write_reference(tmp_path, "torch.matmul(a.to(torch.int32), b.to(torch.int32))", "torch.randint(-5, 5, (16, 32), "
                          "dtype=torch.int8), torch.randint(-5, 5, (32, 16), dtype=torch.int8)", sig="a, b")
    d = draft(ref)
    assert isinstance(d, Unsupported) and "int32" in d.reason, d


def test_a_per_row_vector_of_a_flattened_batch_is_not_read_by_the_products_row(tmp_path):
    """F.linear of [2, 9, 40]: the cube multiplies one [18, 40] matrix, whose row 9 is row 0 of the second batch; the
    per-row vector of 9 values is then not the cube's (it read past its end: half the result wrong); the product and
    the scale run as two stages and verify."""
    ref = write_reference(tmp_path, "F.linear(x, w) * rs.unsqueeze(-1)",
                          "torch.randn(2, 9, 40), torch.randn(30, 40), torch.rand(9)", sig="x, w, rs")
    d = assert_verified(ref, tmp_path)
    assert d.plan.template == "staged"
