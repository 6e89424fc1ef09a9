"""torch.logical_and / logical_or / logical_not / logical_xor of tensors that are not bool (a value is true when
it is not 0, PyTorch's rule): each non-bool operand becomes a comparison with 0 and the result is a bool tensor."""
import pytest

from tests.agent_graph.drafter_checks import assert_verified, write_reference

CASES = {
    "and_int_float": ("torch.logical_and(x, y)", "torch.randint(-2, 3, (7, 40)).float(), torch.randint(-2, 3, (7, 40)).int()"),
    "xor_with_comparison": ("torch.logical_xor(x, y > 0)", "torch.randn(6, 50), torch.randn(6, 50)"),
    "not_or_half": ("torch.logical_not(torch.logical_or(x, y))", "torch.randint(-1, 2, (5, 33)).half(), torch.zeros(5, 33).half()"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_logical_ops_of_any_dtype_verify(name, tmp_path):
    body, inputs = CASES[name]
    assert_verified(write_reference(tmp_path, body, inputs, sig="x, y"), tmp_path)
