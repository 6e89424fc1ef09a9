"""Comparisons inside row-wise kernels: a tensor compared with a row broadcast over the leading dimensions (a
bool result), with a per-row value, with a forward float (bfloat16), and torch.logaddexp (whose decomposition compares and selects) against a
broadcast row in float16. The row pitch is whole 64-float repeats so each row's Compare stays in its row."""
import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference

CASES = {
    "gt_broadcast_row_bool": ("torch.gt(x, y)", "torch.randn(6, 37), torch.randn(37)"),
    "logaddexp_broadcast_half": ("torch.logaddexp(x, y)", "torch.randn(5, 3, 70).half(), torch.randn(70).half()"),
    "where_per_row_then_softmax": ("torch.where(x >= y, x * 2.0, y - x).softmax(-1)", "torch.randn(9, 100), torch.randn(9, 1)"),
    # a forward float compared with a bfloat16 tensor is rounded to bfloat16 first, as PyTorch promotes it;
    # the inputs hold bfloat16(0.3) itself, where comparing with float 0.3 would pick the other branch
    "bf16_threshold_argument": ("torch.where(x > thr, x, y * thr)",
                                "torch.cat([torch.full((1, 5, 23), 0.3), torch.randn(3, 5, 23)]).bfloat16(), "
                                "torch.randn(23, dtype=torch.bfloat16), 0.3", "x, y, thr: float"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_row_comparison_verifies(name, tmp_path):
    body, inputs, sig = (*CASES[name], "x, y")[:3]
    d = assert_verified(write_reference(tmp_path, body, inputs, sig=sig), tmp_path)
    assert d.plan.template == "row"
