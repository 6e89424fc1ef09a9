"""Scans over rows longer than the Unified Buffer holds (issue 17 item 1): the split-row path streams
the row in chunks and carries the scan's running value from chunk to chunk (a reversed scan streams
the chunks from the row's end); drafted, built and verified on the emulator against the reference."""
from __future__ import annotations

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_streamed
from tests.agent_graph.test_drafter_canonical import _write

REFS = {
    "long_cumsum_scaled": ("torch.cumsum(x, dim=1) * 0.5", "x", "torch.randn(3, 20000)"),
    "long_reverse_cumprod": ("torch.flip(torch.cumprod(torch.flip(x, [1]), 1), [1])", "x",
                             "torch.rand(2, 9000) * 0.02 + 0.995"),
    "long_exclusive_cumsum_half": ("torch.cat((torch.zeros_like(x[:, :1]), torch.cumsum(x[:, :-1], dim=1)), dim=1)",
                                   "x", "torch.randn(2, 12000).half()"),
    "long_masked_cumsum": ("torch.cumsum(x * mask, dim=1)", "x, mask", "torch.randn(2, 15000), torch.rand(2, 15000) > 0.4"),
}


@pytest.mark.parametrize("name", sorted(REFS))
def test_a_scan_over_rows_longer_than_ub_is_streamed(name, tmp_path):
    d, kernel = assert_streamed(_write(tmp_path, name, *REFS[name]), tmp_path, "split_scan")
    assert "float run0 = " in kernel and "ProcessSplit" in kernel
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "constexpr bool ROWS_SHAREABLE = false;" in host     # the carry runs along the whole row: one core each


def test_a_scan_meeting_a_row_reduction_over_a_long_row_runs_in_stages(tmp_path):
    """One streamed row cannot carry a scan and a reduction the scan's values need: the row sum is a vector stage
    of its own, the scan divided by it the next (verified 1/1 by kgen generate by hand)."""
    ref = _write(tmp_path, "cumsum_norm", "torch.cumsum(x, 1) / x.sum(1, keepdim=True)", "x", "torch.randn(2, 30000)")
    d = draft(ref)
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d
