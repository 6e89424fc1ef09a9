"""Triangles and diagonals around a matmul: ``torch.triu``/``tril`` of a product (or the same mask spelled with
``arange`` compares, ``masked_fill`` of a bool buffer, a 0/1 factor) drafted as the cube kernel plus a per-row
select on each result tile; ``torch.diag(v) @ b`` / ``b @ torch.diag(v)`` drafted as the row or column scaling
they are. Masks are read by value (``constmask``), checked here against torch's own triu/tril."""
from __future__ import annotations

import pytest
import torch

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.constmask import lower_offset, triangle
from tests.agent_graph.drafter_checks import assert_verified
from tests.agent_graph.test_drafter_cube import _verified, _write


@pytest.mark.parametrize("rows,cols", [(5, 5), (4, 9), (9, 4)])
@pytest.mark.parametrize("k", [-3, -1, 0, 2])
def test_a_keep_pattern_is_read_as_the_triangle_torch_keeps(rows, cols, k):
    ones = torch.ones(rows, cols, dtype=torch.bool)
    low, up = ones.tril(k), ones.triu(k)
    if not bool(low.all()) and bool(low.any()):
        assert triangle(low) == ("lower", k)
    if not bool(up.all()) and bool(up.any()):
        assert triangle(up) == ("upper", k)
    # batched: the same triangle in every matrix
    assert triangle(low.expand(3, rows, cols)) == triangle(low)


def test_masks_that_are_no_triangle_are_named():
    checker = (torch.arange(6)[:, None] + torch.arange(6)) % 2 == 0
    assert isinstance(triangle(checker), str)
    assert isinstance(triangle(torch.ones(4, 4, dtype=torch.bool)), str)     # keeps everything: nothing to mask
    mixed = torch.stack([torch.ones(4, 4, dtype=torch.bool).tril(), torch.ones(4, 4, dtype=torch.bool).tril(1)])
    assert "not a lower triangle" in str(lower_offset(mixed))               # differs between matrices


def _kernel(plan) -> str:
    return next(t for p, t in plan.files.items() if p.startswith("op_kernel/"))


def test_tril_of_a_product_is_verified_with_a_select_per_tile_row(tmp_path):
    ref = _write(tmp_path, "tril_mm", "", "torch.tril(torch.relu(a @ b), diagonal=-2)", "a, b",
                 "torch.randn(70, 33), torch.randn(33, 150)")
    plan, _ = _verified(ref, tmp_path)
    kernel = _kernel(plan)
    assert "torch.tril(.., -2): keep j <= i + k" in kernel and "CMPMODE::LE" in kernel
    assert "CreateVecIndex(colIdx_.Get<float>(), 0.0f, ColIdxLen());" in kernel
    assert "PipeBarrier<PIPE_ALL>" not in kernel


@pytest.mark.parametrize("body,side", [
    ("torch.where(torch.arange(a.shape[0])[:, None] <= torch.arange(b.shape[1]), a @ b, 0.0)", "GE"),
    ("(a @ b) * torch.ones(a.shape[0], b.shape[1]).triu(3)", "GE"),
    ("(a @ b).masked_fill(torch.ones(a.shape[0], b.shape[1], dtype=torch.bool).tril(-1), 0.0)", "GE"),
    ("torch.triu(a @ b, 1).tril(5)", None),
])
def test_mask_spellings_reach_the_same_kernel_or_are_refused(tmp_path, body, side):
    d = draft(_write(tmp_path, "m", "", body, "a, b", "torch.randn(12, 8), torch.randn(8, 20)"))
    if side is None:      # a band (two masks): not one triangle; refused, naming a core op
        assert isinstance(d, Unsupported) and "aten." in d.reason, d
        return
    assert not isinstance(d, Unsupported), d
    assert d.plan.template == "cube" and f"CMPMODE::{side}" in _kernel(d.plan)


def test_a_diagonal_matrix_product_is_a_scaling_not_a_matmul(tmp_path):
    ref = _write(tmp_path, "diag_left", "", "torch.diag(d) @ x", "d, x", "torch.randn(37), torch.randn(37, 53)")
    d = draft(ref)
    assert not isinstance(d, Unsupported), d
    assert d.plan.template != "cube" and "Matmul" not in _kernel(d.plan)
    assert_verified(ref, tmp_path)
    # a 2-D diag (the diagonal of a matrix) is not a diagonal matrix: still a matmul's prologue, refused
    r = draft(_write(tmp_path, "diag2", "", "torch.diag(torch.diag(m)) @ x", "m, x", "torch.randn(6, 6), torch.randn(6, 4)"))
    assert isinstance(r, Unsupported) or r.plan.template != "cube"
