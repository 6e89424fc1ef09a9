"""topk's indices: ties picked in another order pass, other differences fail (bench_bridge/tasks/ties.py)."""
from __future__ import annotations

import numpy as np
import pytest

REF = (
    "import torch\nimport torch.nn as nn\n\n"
    "class Model(nn.Module):\n    def forward(self, x):\n        {body}\n\n"
    "def get_inputs():\n    return [torch.tensor([[1., 3., 3., 0., 3., 2.], [5., 5., 4., 4., 1., 5.]]).half()]\n\n"
    "def get_init_inputs():\n    return []\n")


def _prepare(tmp_path, body):
    from bench_bridge.tasks import load_task
    from bench_bridge.tasks.worker import prepare

    ref = tmp_path / "ref.py"
    ref.write_text(REF.format(body=body))
    out = tmp_path / "out"
    out.mkdir()
    e = prepare(load_task(ref), out)[0]
    assert e["status"] == "ok", e.get("message")
    return e, out / e["dir"]


def _check(e, cdir, k, got):
    from bench_bridge.bench_compare import compare_outputs

    names = ["values", "indices"][:len(e["refs"])]
    outs = [np.load(cdir / m["file"]) for m in e["refs"]]
    outs[k] = np.asarray(got, dtype=np.int64)
    return compare_outputs(names, e["refs"], outs, [m["dtype"] for m in e["refs"]], cdir)[k]


def test_indices_of_equal_values_in_another_order_pass(tmp_path):
    e, cdir = _prepare(tmp_path, "t = torch.topk(x, 3, dim=1)\n        return t.values, t.indices")
    assert "ties" in e["refs"][1] and "ties" not in e["refs"][0]
    want = np.load(cdir / e["refs"][1]["file"])
    # rows [1 3 3 0 3 2] and [5 5 4 4 1 5]: the three largest are the three 3s and the three 5s
    assert sorted(want[0]) == [1, 2, 4] and sorted(want[1]) == [0, 1, 5]
    swapped = want[:, ::-1].copy()
    assert not np.array_equal(swapped, want)
    c = _check(e, cdir, 1, swapped)
    assert c.passed and "differ only in the order of equal values" in c.reason


@pytest.mark.parametrize("got, words", [
    ([[1, 2, 5], [0, 1, 5]], "picks 2, the reference's pick is"),     # 2 is not a 3: a wrong value
    ([[1, 1, 2], [0, 1, 5]], "a position picked twice"),
    ([[1, 2, 6], [0, 1, 5]], "an index out of range"),
])
def test_indices_of_other_values_repeated_or_out_of_range_fail(tmp_path, got, words):
    e, cdir = _prepare(tmp_path, "t = torch.topk(x, 3, dim=1)\n        return t.values, t.indices")
    c = _check(e, cdir, 1, got)
    assert not c.passed and "are no tie" in c.reason and words in c.reason, c.reason


def test_an_index_output_that_is_not_topks_is_compared_exactly(tmp_path):
    # argmax documents its tie rule (the first maximal value): no tie allowance
    e, cdir = _prepare(tmp_path, "return x.argmax(dim=1)")
    assert "ties" not in e["refs"][0]
    c = _check(e, cdir, 0, [2, 1])
    assert not c.passed and c.mismatches == 2


def test_topk_along_dim_0_records_its_dimension(tmp_path):
    e, cdir = _prepare(tmp_path, "return x.topk(1, dim=0).indices")
    assert e["refs"][0]["ties"]["dim"] == 0
    want = np.load(cdir / e["refs"][0]["file"])
    assert want.tolist() == [[1, 1, 1, 1, 0, 1]]   # the larger of each column [1 5] [3 5] [3 4] [0 4] [3 1] [2 5]
    got = want.copy()
    got[0, 4] = 1                       # column 4 is [3, 1]: row 1 holds the smaller value
    c = _check(e, cdir, 0, got)
    assert not c.passed and "picks 1, the reference's pick is 3" in c.reason, c.reason
