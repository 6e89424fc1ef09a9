"""Windows of an input's last dimension (``x.chunk(2, -1)``, ``F.glu``, ``torch.split``, ``x[..., a:b]``): each
window copied into a queue of its own with a GM stride (operands.WindowInput), its start one rule over the cases
(windows.py). Suite references geglu_two_outputs and swiglu_chunk_dim_arg verify the kernels; here the rules,
the C++ they give and the refusals."""
from __future__ import annotations

import pytest

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.windows import window_starts
from tests.agent_graph.drafter_checks import assert_verified, write_reference


@pytest.mark.parametrize("points, want", [
    ([(0, 8, 4), (0, 20, 10)], "0"),                # the first half
    ([(4, 8, 4), (10, 20, 10)], "cols_"),           # the second half (chunk, glu)
    ([(8, 12, 4), (20, 30, 10)], "2 * cols_"),      # the third of three
    ([(3, 10, 4), (3, 17, 11)], "3"),               # x[..., 3:] while the row grows
    ([(4, 9, 5), (12, 17, 5)], "srcCols0_ - 5"),    # x[..., -5:]
])
def test_a_window_start_is_one_rule_over_the_cases(points, want):
    assert window_starts([{0: [p]} for p in points]) == {0: [want]}


def test_window_starts_that_follow_no_rule_are_said():
    why = window_starts([{0: [(1, 8, 4)]}, {0: [(2, 12, 4)]}])
    assert isinstance(why, str) and "starts at [1, 2] in rows of [8, 12]" in why


def test_a_fixed_offset_window_reads_its_input_at_that_offset(tmp_path):
    """x[..., 4:] against a y as long as the window: the offset stays 4 whatever the row's length; x's own row
    length reaches the kernel as a tiling field."""
    spec = tmp_path / "kgen-task.toml"
    write_reference(tmp_path, "x[..., 4:] * y", "torch.randn(3, 12), torch.randn(3, 8)", sig="x, y")
    spec.write_text('name = "offset"\nreference = "ref.py"\n\n'
                    '[[cases]]\nid = "a"\ninputs = [{ shape = [3, 12], dtype = "float32" }, { shape = [3, 8], dtype = "float32" }]\n\n'
                    '[[cases]]\nid = "b"\ninputs = [{ shape = [2, 21], dtype = "float32" }, { shape = [2, 17], dtype = "float32" }]\n')
    d = draft(spec)
    assert not isinstance(d, Unsupported), str(d)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    tiling = next(t for p, t in d.files.items() if p.endswith("_tiling.h"))
    assert "xg0_[static_cast<uint64_t>(off) * srcCols0_ + 4]" in kernel and "xCols" in tiling


@pytest.mark.parametrize("body, inputs, words", [
    ("torch.softmax(x[:2], -1)", "torch.randn(4, 6)", "aten.slice along dim 0 of a forward input of shape [4, 6] "
                                                     "together with core op aten.softmax"),
    ("x[:2] + x[:, :3].sum()", "torch.randn(4, 6)", "together with windows along other dimensions"),
    ("(x * 2)[..., :3] + 1", "torch.randn(4, 6)", "aten.slice along dim 1 of a computed value"),
    ("x[..., ::2] + 1", "torch.randn(4, 6)", "a step of 2"),
])
def test_windows_outside_the_row_template_are_refused_by_name(tmp_path, body, inputs, words):
    d = draft(write_reference(tmp_path, body, inputs))
    assert isinstance(d, Unsupported) and not d.user_error and words in d.reason, d


def test_a_window_along_an_earlier_dimension_is_a_window_of_collapsed_rows(tmp_path):
    """x.chunk(2, dim=1) of [3, 10, 17]: the halves are [0, 85) and [85, 170) of rows of 170 (the last two
    dimensions as one row); x[:2] of a matrix is the first half of its one row. Checked against PyTorch."""
    ref = write_reference(tmp_path, "F.silu(x.chunk(2, dim=1)[0]) * x.chunk(2, dim=1)[1]", "torch.randn(3, 10, 17).half()")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    host = next(t for p, t in d.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "a row of 'x' is its last 2 dimensions" in host and "+ cols_]" in kernel
    assert_verified(write_reference(tmp_path, "x[:2] * 2", "torch.randn(4, 6)"), tmp_path / "rows")


def test_a_concatenation_along_an_earlier_dimension_is_one_of_collapsed_rows(tmp_path):
    """A GLU's gradient spelled along dim 1: the two halves' gradients concatenated along dim 1 of [3, 10, 17] are
    the two runs of each collapsed row of 170 (checked against PyTorch, bfloat16)."""
    ref = write_reference(tmp_path, "torch.cat([x.chunk(2, 1)[1] * g, torch.sigmoid(x.chunk(2, 1)[0]) * g], dim=1)",
                          "torch.randn(3, 10, 17).bfloat16(), torch.randn(3, 5, 17).bfloat16()", sig="x, g")
    d = assert_verified(ref, tmp_path)
    host = next(t for p, t in d.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "a row of 'x' is its last 2 dimensions" in host


def test_windows_of_different_lengths_run_in_stages(tmp_path):
    """One row kernel reads windows as long as its rows only: the sum of a [.., 2] window times a [.., 4] one
    is two vector stages (the sum's result through the workspace; verified 1/1 by kgen generate by hand)."""
    d = draft(write_reference(tmp_path, "torch.split(x, [2, 4], -1)[0].sum(-1, keepdim=True) * torch.split(x, [2, 4], -1)[1]",
                              "torch.randn(4, 6)"))
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d


def test_a_concatenated_result_writes_each_piece_into_its_window(tmp_path):
    """torch.cat of three pieces along the last dimension (a window of x as it is, a softmax of another, a scaled
    third) with no input as long as the kernel's rows: the host divides the output's row length by the pieces;
    checked against PyTorch (float16)."""
    ref = write_reference(tmp_path, "torch.cat([x.chunk(3, -1)[2], torch.softmax(x.chunk(3, -1)[0], -1), "
                                    "x.chunk(3, -1)[1] * 2], -1)", "torch.randn(5, 7, 45).half()")
    d = assert_verified(ref, tmp_path)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    host = next(t for p, t in d.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "cols /= 3;" in host and "total /= 3;" in host
    assert "* 3 * cols_ + 2 * cols_], yt0w2, win0);" in kernel and "FromFloat(yt0w0, XI0w" in kernel


def test_a_concatenation_cast_back_casts_each_piece(tmp_path):
    """cat(pieces).to(dtype) (a gradient computed in float32, returned in the input's dtype): each piece is cast
    (rounded to float16 in its slot), then written into its window (verified 2/2 fp16/bf16 by kgen generate)."""
    ref = write_reference(tmp_path, "torch.cat([x.float().chunk(2, -1)[1] * y.float(), y.float().exp()], -1).to(x.dtype)",
                          "torch.randn(4, 32).half(), torch.randn(4, 16).half()", sig="x, y")
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    kernel = next(t for p, t in d.files.items() if p.startswith("op_kernel/"))
    assert d.plan.params.outputs[0].kind == "cat" and kernel.count("RoundMode::CAST_RINT") >= 2


def test_a_concatenation_other_ops_read_ends_a_stage(tmp_path):
    """A row kernel writes a concatenation only as its result: a sum over it reads it back in a second stage."""
    d = draft(write_reference(tmp_path, "torch.cat([x, x * 2], -1).sum(-1)", "torch.randn(4, 8)"))
    assert not isinstance(d, Unsupported) and d.plan.template == "staged", d


def test_a_cross_product_along_a_dimension_given_as_an_argument(tmp_path):
    """torch.cross(a, b, dim=d): PyTorch decomposes it with an arange index (refused: "core op aten.arange"); the
    front end writes it as the three slices along d, their products and a cat. Int8 windows widen and the int8
    result narrows through half (the only casts of one-byte types); int32 windows get a float copy of their own
    (a 4-byte type is not float: its copy was 32 bytes, an out-of-bounds cast); a kernel serving only int32 is
    not compiled in the int8 build (its float widening does not compile for int8)."""
    from tests.agent_graph.drafter_checks import write_spec
    t = '{{ shape = {s}, dtype = "{d}", range = [-8, 8] }}'     # (int8 products in range: PyTorch's wrap is not modelled)
    cases = [[t.format(s=s, d=d)] * 2 for s, d in (([6, 3, 40], "float32"), ([4, 1, 3, 33], "float16"),
                                                    ([5, 2, 3, 64], "int8"), ([7, 45, 3], "int32"))]
    spec = write_spec(tmp_path, "torch.cross(a, b, dim=d)", "a, b, d: int", cases, args=[[1], [2], [2], [2]])
    d = assert_verified(spec, tmp_path)
    kernel = next(v for k, v in d.files.items() if k.startswith("op_kernel/"))
    assert "WidenBytes<float>(xt0w0" in kernel and "NarrowToBytes<false>(yt0w0" in kernel
