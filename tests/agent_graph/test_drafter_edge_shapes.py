"""Cases NPUKernelBench's case lists hold that shape-based code trips on: a 0-d tensor (shape []) as the first
case, and empty tensors (a dimension of 0). The drafted kernel is correct on every case: the 0-d case computes
one element, an empty case launches one block that returns at once (no division by a zero element count)."""
from pathlib import Path

import pytest

from tests.agent_graph.drafter_checks import assert_verified

DATA = Path(__file__).resolve().parents[1] / "data" / "tasks" / "input_groups"


@pytest.mark.parametrize("stem", ["edge_shapes", "row_edge_shapes", "empty_against_one"])
def test_zero_d_and_empty_cases_verify(stem, tmp_path):
    # flat template (hardswish chain), row template (log-softmax); an empty x against a [1] y (floor_divide: the
    # output is x's empty shape, not y's one element: "input x of shape [0, 3, 5] against [1]" before)
    assert_verified(DATA / f"{stem}.py", tmp_path)


def test_forward_floats_as_tensors_take_each_cases_value(tmp_path):
    # torch.as_tensor(alpha, dtype=x.dtype) and x.new_tensor(beta): lifted constants tied back to the forward
    # floats (a first-case value baked in would fail the other cases), rounded to float16 as PyTorch does
    assert_verified(DATA / "tensor_scalars.py", tmp_path)
