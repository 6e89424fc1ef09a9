"""A reference whose cases come from get_input_groups() (MultiKernelBench's NPUKernelBench-level layout)
drafts offline to one kernel that is correct on every case: fp32, fp16 and bf16 shapes, a forward scale."""
from pathlib import Path

from tests.agent_graph.drafter_checks import assert_verified

REF = Path(__file__).resolve().parents[1] / "data" / "tasks" / "input_groups" / "scaled_sum.py"


def test_every_group_is_a_verified_case(tmp_path):
    assert_verified(REF, tmp_path)   # drafted, built, and all 3 cases of scaled_sum.json run and correct
