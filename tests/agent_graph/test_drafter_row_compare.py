"""Comparisons inside row-wise kernels: a tensor compared with a row broadcast over the leading dimensions (a
bool result), with a per-row value, and torch.logaddexp (whose decomposition compares and selects) against a
broadcast row in float16. The row pitch is whole 64-float repeats so each row's Compare stays in its row."""
import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference

CASES = {
    "gt_broadcast_row_bool": ("torch.gt(x, y)", "torch.randn(6, 37), torch.randn(37)"),
    "logaddexp_broadcast_half": ("torch.logaddexp(x, y)", "torch.randn(5, 3, 70).half(), torch.randn(70).half()"),
    "where_per_row_then_softmax": ("torch.where(x >= y, x * 2.0, y - x).softmax(-1)", "torch.randn(9, 100), torch.randn(9, 1)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_row_comparison_verifies(name, tmp_path):
    body, inputs = CASES[name]
    d = assert_verified(write_reference(tmp_path, body, inputs, sig="x, y"), tmp_path)
    assert d.plan.template == "row"
