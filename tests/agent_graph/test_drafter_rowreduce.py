"""Batched row reductions (rowreduce.py): every row of a UB tile reduced by one BlockReduce + one WholeReduce.
The block results of a whole tile need tileElems / 8 floats of work space; a kernel that also carries the
split-row path (long rows) once sized it for a per-row reduction (tileElems / 16), and the emulator stopped a
plain x.sum(-1) of [640, 210] writing past it (ub-out-of-bounds). Checked against PyTorch."""
from __future__ import annotations

import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference


@pytest.mark.parametrize("body,inputs", [
    ("x.sum(-1)", "torch.randn(640, 210)"),                      # 16 rows of 256 floats per tile: 512 block results
    ("x.amax(dim=-1, keepdim=True)", "torch.randn(1024, 128).half()"),
])
def test_a_tile_of_rows_reduced_at_once_fits_its_work_space(tmp_path, body, inputs):
    d = assert_verified(write_reference(tmp_path, body, inputs), tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert "BlockReduce" in kernel and "WholeReduce" in kernel          # the batched path ran
    assert "tileElems / 8 + 64" in kernel and "tileElems / 16" not in kernel
