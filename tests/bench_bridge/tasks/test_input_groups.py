"""References that list their cases through get_input_groups() and a JSON Lines file beside them
(MultiKernelBench's NPUKernelBench-level layout): one case a line, no reference code run to count them."""
from __future__ import annotations

import shutil

import pytest

from bench_bridge.api import TaskError, load_task

DATA = __import__("pathlib").Path(__file__).resolve().parents[2] / "data" / "tasks" / "input_groups"


def test_a_case_per_json_line_with_its_shapes():
    task = load_task(DATA / "scaled_sum.py")
    assert task.format == "kernelbench"
    assert [c.id for c in task.cases] == ["0", "1", "2"]          # the blank line is no case
    assert [c.params["group"] for c in task.cases] == [0, 1, 2]
    assert task.cases[1].params["inputs"][0] == {"name": "a", "dtype": "float16", "shape": [1000]}
    assert task.cases[2].params["inputs"][2]["value"] == 1.25


def test_missing_or_malformed_cases_file_is_one_line(tmp_path):
    ref = tmp_path / "op.py"
    shutil.copy(DATA / "scaled_sum.py", ref)
    with pytest.raises(TaskError, match=r"op\.py: defines get_input_groups\(\) but op\.json .* is not beside it"):
        load_task(ref)
    (tmp_path / "op.json").write_text('{"inputs": []}\n{"inputs": [\n')
    with pytest.raises(TaskError, match=r"op\.json:2: not a JSON object"):
        load_task(ref)
    (tmp_path / "op.json").write_text("\n\n")
    with pytest.raises(TaskError, match=r"op\.json: no cases"):
        load_task(ref)


def test_a_file_with_neither_generator_is_refused(tmp_path):
    ref = tmp_path / "bare.py"
    ref.write_text("class Model:\n    pass\n")
    with pytest.raises(TaskError, match=r"missing get_inputs\(\)"):
        load_task(ref)
