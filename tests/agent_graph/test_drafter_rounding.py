"""torch.round (half-way cases to the even integer) and torch.trunc draft to the Round / Trunc APIs; the
inputs hold exact half-way values (-2.5, 0.5, 1.5, ...) where rounding half away from zero would differ."""
from tests.agent_graph.drafter_checks import assert_verified, write_reference


def test_round_half_even_and_trunc_verify(tmp_path):
    ref = write_reference(tmp_path, "torch.round(x) + torch.trunc(x * 3.0) * 0.5",
                          "torch.arange(-40, 40).float().reshape(5, 16) / 4")
    assert_verified(ref, tmp_path)


def test_add_alpha_is_rounded_to_the_tensors_dtype(tmp_path):
    # torch.add(x, y, alpha=a) in bfloat16 multiplies by alpha as a bfloat16 (0.37 -> 0.369140625), then rounds once
    ref = write_reference(tmp_path, "torch.add(x, y, alpha=0.37)", "torch.randn(6, 300).bfloat16(), torch.randn(6, 300).bfloat16()",
                          sig="x, y")
    assert_verified(ref, tmp_path)
