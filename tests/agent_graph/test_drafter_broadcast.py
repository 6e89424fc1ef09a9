"""Inputs broadcast over any leading dimension (issue 18 item 2), each drafted, built and verified on the
emulator against its own reference: a channel bias ``b.view(1, C, 1, 1)`` or ``s[:, None, None]`` is one
value per output row, read through the host's row map; a tensor missing some leading dimensions
(``a.unsqueeze(1)``, ``[C, W]`` against ``[N, C, W]``) has its rows gathered through the map; two groups of
kept dimensions with broadcast ones between; a bool condition per row picks whole rows in ``where``;
logic on bool tensors; and what is still refused."""
from __future__ import annotations

import pytest

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified
from tests.agent_graph.test_drafter_canonical import _write

REFS = {
    "channel_bias": ("x + b.view(1, -1, 1, 1)", "x, b", "torch.randn(2, 5, 3, 19), torch.randn(5)"),
    "channel_affine_half": ("x * s[:, None, None] - t[:, None, None]", "x, s, t",
                            "torch.randn(2, 6, 5, 33).half(), torch.randn(6).half(), torch.randn(6).half()"),
    "bias_relu_bf16": ("torch.relu(x + bias.reshape(1, -1, 1))", "x, bias",
                       "torch.randn(2, 9, 48).bfloat16(), torch.randn(9).bfloat16()"),
    "rows_gathered": ("x + a.unsqueeze(1) * b", "x, a, b", "torch.randn(4, 3, 37), torch.randn(4, 37), torch.randn(3, 37)"),
    "two_kept_groups": ("x - b", "x, b", "torch.randn(2, 3, 4, 5, 21), torch.randn(1, 3, 1, 5, 1)"),
    "where_channel_mask": ("torch.where(m, x, y)", "m, x, y",
                           "torch.rand(1, 7, 1) > 0.5, torch.randn(3, 7, 40), torch.randn(3, 7, 40)"),
    "bool_and_channel": ("a & b", "a, b", "torch.rand(3, 6, 50) > 0.5, torch.rand(1, 6, 1) > 0.5"),
    "mutual_broadcast": ("torch.maximum(a, b) * 2", "a, b", "torch.randn(5, 1, 40), torch.randn(1, 3, 40)"),
    "mutual_row_values": ("a * b", "a, b", "torch.randn(6, 1, 33), torch.randn(1, 4, 1)"),
    "where_zeros_like_cumsum_half": ("torch.where(m.unsqueeze(-1), x, torch.zeros_like(x)).cumsum(-1)", "x, m",
                                     "torch.randn(4, 9, 31).half(), torch.rand(4, 9) > 0.5"),
    "row_bounds_clamp": ("torch.clamp(x, min=lo.view(-1, 1), max=hi.view(-1, 1))", "x, lo, hi",
                         "torch.randn(11, 30) * 3, -torch.rand(11), torch.rand(11)"),
}


@pytest.mark.parametrize("name", sorted(REFS))
def test_broadcast_reference_drafts_a_verified_kernel(name, tmp_path):
    assert_verified(_write(tmp_path, name, *REFS[name]), tmp_path)


def test_the_row_map_is_computed_on_the_host_from_the_runtime_shape(tmp_path):
    ref = _write(tmp_path, "channel_bias", *REFS["channel_bias"])
    d = draft(ref)
    files = d.plan.files
    host = next(t for p, t in files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    kernel = next(t for p, t in files.items() if p.startswith("op_kernel/"))
    b = d.plan.params.inputs[1].name        # the kernel's name for the forward argument b
    assert f"RowMapOf(xs, 0x4U, {b}Map)" in host and f"tiling.set_{b}RowDiv0({b}Map[0]);" in host
    assert "struct RowMap" in kernel and "rowMap1_(first_ + off + r)" in kernel


def test_a_broadcast_between_three_groups_is_refused_naming_the_shapes(tmp_path):
    ref = _write(tmp_path, "three_groups", "x + b", "x, b", "torch.randn(2, 3, 2, 3, 2, 3, 7), torch.randn(1, 3, 1, 3, 1, 3, 1)")
    d = draft(ref)
    assert isinstance(d, Unsupported) and not d.user_error
    assert "[1, 3, 1, 3, 1, 3, 1]" in d.reason and "more than two groups" in d.reason
