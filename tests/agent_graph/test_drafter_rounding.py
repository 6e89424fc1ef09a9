"""torch.round (half-way cases to the even integer) and torch.trunc draft to the Round / Trunc APIs; the
inputs hold exact half-way values (-2.5, 0.5, 1.5, ...) where rounding half away from zero would differ."""
from tests.agent_graph.drafter_checks import assert_verified, write_reference


def test_round_half_even_and_trunc_verify(tmp_path):
    ref = write_reference(tmp_path, "torch.round(x) + torch.trunc(x * 3.0) * 0.5",
                          "torch.arange(-40, 40).float().reshape(5, 16) / 4")
    assert_verified(ref, tmp_path)
