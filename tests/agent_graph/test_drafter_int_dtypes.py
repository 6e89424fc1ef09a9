"""Integer tensors beyond int32: int16 data (computed as exact floats: the int16 -> float cast takes no rounding
mode), int64 data in tiles sized for 8-byte elements, one-byte masks broadcast over leading dimensions, per-row
and one-element operands of comparisons, and int numbers given as forward arguments read as attributes (one
kernel for every threshold) when the reference's pointwise constants move with them."""
from __future__ import annotations

from tests.agent_graph.drafter_checks import assert_verified, write_spec


def _t(shape, dtype, lo=None, hi=None):
    rng = f", range = [{lo}, {hi}]" if lo is not None else ""
    return f'{{ shape = {list(shape)}, dtype = "{dtype}"{rng} }}'


def _kernel(d) -> str:
    return next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))


def test_int16_arithmetic_compare_and_select_beyond_what_half_holds(tmp_path):
    """int16 values up to +-16000 (not exact in half: the kernel must widen to float, with CAST_NONE, the only
    mode the int16 -> float cast takes); the store truncates back to int16."""
    spec = write_spec(tmp_path, "torch.where(x > y, x - y, torch.maximum(x, y) // 3)", "x, y",
                      [[_t([4, 33], "int16", -16000, 16000), _t([4, 33], "int16", -16000, 16000)],
                       [_t([7, 3, 5], "int16", -200, 200), _t([1, 3, 1], "int16", -200, 200)]])
    d = assert_verified(spec, tmp_path)
    assert "ge::DT_INT16" in d.plan.files[next(p for p in d.plan.files if p.startswith("op_host/") and p.endswith(".cpp"))]


def test_logical_ops_with_row_broadcast_zero_d_and_leading_broadcast_of_bytes(tmp_path):
    """logical_and of int8 tensors: y of [N, 1] (a per-row value compared with 0 on the scalar unit), two 0-d
    tensors (the host sees them as rank <= 1), and a [B, S, 1, D] mask against [B, S, R, D] (one-byte rows
    gathered through the row map). Refused before: "ne of these operands", "no kernel for this structure
    (rank0=1)", "input y of dtype int8 broadcast over leading dimensions"."""
    spec = write_spec(tmp_path, "torch.logical_and(x, y)", "x, y",
                      [[_t([4, 33], "int8"), _t([4, 1], "int8")],
                       [_t([], "int8"), _t([], "int8")],
                       [_t([3, 2, 5, 47], "int8"), _t([3, 2, 1, 47], "int8")]])
    d = assert_verified(spec, tmp_path)
    assert d.plan.template == "keyed"
    host = next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))
    assert "rank0 <= 1" in host


def test_a_one_element_operand_of_a_logical_op(tmp_path):
    """logical_or of bfloat16 x [1, 19] with y [1, 1]: y's truth (y != 0) is one number for the whole tensor."""
    spec = write_spec(tmp_path, "torch.logical_or(x, y)", "x, y",
                      [[_t([1, 19], "bfloat16"), _t([1, 1], "bfloat16")],
                       [_t([3, 19], "bfloat16"), _t([1], "bfloat16")]])
    assert_verified(spec, tmp_path)


def test_int_thresholds_given_as_arguments_are_attributes_of_one_kernel(tmp_path):
    """torch.threshold(x, t, v) with int t and v over int16/int32 tensors and float ones over float16: PyTorch's
    export bakes every number in as a constant; a second export with the ints moved shows which constants are
    the arguments, so one kernel compares with and fills the attributes. Before: a kernel per pair of values
    (the cases "trace to different op graphs")."""
    spec = write_spec(tmp_path, "torch.threshold(x, t, v)", "x, t: int, v: int",
                      [[_t([4, 33], "int16")], [_t([5, 7], "int32")], [_t([6, 9], "int32")], [_t([5, 7], "float16")]],
                      args=[[-3, 5], [8, 4], [0, -7], [0.5, -2.0]])
    d = assert_verified(spec, tmp_path)
    assert d.plan.template != "keyed"
    kernel = _kernel(d)
    assert "attr0_" in kernel and "attr1_" in kernel


def test_an_int_argument_that_is_a_dimension_stays_a_dimension(tmp_path):
    """x.sum(d) + d: the export with d moved fails (no such dimension), so d is read as the case's value, as
    before; the cases still verify."""
    spec = write_spec(tmp_path, "x.sum(d) + d", "x, d: int",
                      [[_t([4, 33], "float32")], [_t([6, 40], "float32")]], args=[[1], [1]])
    assert_verified(spec, tmp_path)


def test_int64_tiles_are_sized_for_eight_byte_elements(tmp_path):
    """One elementwise kernel for int8 and int64 data, over 512K int64 elements (more than a tile on each core): the tile is sized from the 8-byte
    queues (sized for 4-byte data beside the int8 path's half staging it overran the Unified Buffer: "Compares
    touches UB bytes up to 262632")."""
    spec = write_spec(tmp_path, "torch.threshold(x, t, v)", "x, t: int, v: int",
                      [[_t([7, 9], "int8", -10, 10)], [_t([512, 1024], "int64", -10, 10)]], args=[[-5, 4], [-5, 4]])
    assert_verified(spec, tmp_path)
