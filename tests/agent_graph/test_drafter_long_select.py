"""Comparisons in rows longer than the Unified Buffer holds: the split-row path streams each row in chunks, and a
``Compare``/``Compares`` (a mask of whole 256-byte blocks) runs per chunk like any vector statement, its mask
sized by the chunk (NPUKernelBench's MulSigmoid: a sigmoid, ``where`` against a number, a row-vector weight, on
rows of 32768 half elements). Drafted, built and verified on the emulator against the reference."""
from __future__ import annotations

import pytest

from tests.agent_graph.drafter_checks import assert_streamed, assert_verified
from tests.agent_graph.test_drafter_canonical import _write

REFS = {
    # a row-vector weight beside the selection (the row template, streamed by columns)
    "long_where_weight_half": ("torch.where(torch.sigmoid(x * 0.3) < 0.4, torch.sigmoid(x * 0.3), 2 * x) * w",
                               "x, w", "torch.randn(3, 33000).half(), torch.rand(33000).half()"),
    # a comparison feeding a row reduction (two passes over each long row)
    "long_masked_softmax": ("torch.softmax(torch.where(x > 0.5, x, x * 0.1), dim=-1)", "x",
                            "torch.randn(2, 50000)"),
    # a comparison's result as numbers (1.0 / 0.0) times the row, against a broadcast row
    "long_mask_as_float": ("(x > w).float() * x + w", "x, w", "torch.randn(4, 45000), torch.randn(45000)"),
}


@pytest.mark.parametrize("name", sorted(REFS))
def test_a_comparison_in_rows_longer_than_ub_is_streamed(name, tmp_path):
    d, kernel = assert_streamed(_write(tmp_path, name, *REFS[name]), tmp_path)
    split = kernel[kernel.index("void ProcessSplit()"):]
    assert "(cn + 63) / 64 * 64);" in split       # the chunk's comparison, not the whole row's


def test_two_reductions_sharing_a_pass_keep_the_vector_work_between_them(tmp_path):
    """``x.amax(-1) + (x * 2).exp().sum(-1)`` on long rows: both reductions stream in one pass, and the pass runs
    the exp the second reads (it ran only the work before the first: a wrong sum, caught by this test)."""
    d = assert_verified(_write(tmp_path, "long_max_and_exp_sum", "x.amax(-1) + (x * 2).exp().sum(-1)", "x",
                               "torch.randn(2, 60000)"), tmp_path)
    assert d.plan.params.extra.get("split_passes") == 1


def test_a_bool_input_beside_a_long_row_comparison_runs_in_vector_stages(tmp_path):
    d = assert_verified(_write(tmp_path, "long_bool_where",
                               "torch.where(m, x, x * 0.5).amax(-1) + (x > 0).float().sum(-1)",
                               "x, m", "torch.randn(2, 60000), torch.rand(2, 60000) > 0.5"), tmp_path)
    assert d.plan.template == "staged"
