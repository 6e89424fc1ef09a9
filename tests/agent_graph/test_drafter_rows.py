"""Shape cases of several ranks planned as rows (``collapse.py``): a reference that treats its leading dimensions
alike gets one kernel for [N, D], [B, S, D] and [1, 2, D], its host reading the call through ``RowsContext``; a
reference that reads the rank keeps its cases as they are. Drafted, built and verified on the emulator."""
from pathlib import Path

import torch

from agent_graph.drafter import collapse
from tests.agent_graph.drafter_checks import assert_verified, write_spec

DATA = Path(__file__).resolve().parents[1] / "data" / "tasks"


def _t(shape, dtype="float32"):
    return f'{{ shape = {list(shape)}, dtype = "{dtype}" }}'


def _host(d):
    return next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))


class _Mod:
    """A task module's face (``Model``) for ``collapse.rows_of``."""

    def __init__(self, forward):
        self.Model = type("Model", (torch.nn.Module,), {"forward": lambda self, *a: forward(*a)})


def test_the_row_rule_by_hand():
    assert collapse.row_shape([2, 3, 4], 3, 1) == [6, 4]
    assert collapse.row_shape([2, 3, 4, 5], 4, 2) == [6, 20]
    assert collapse.row_shape([4], 3, 1) == [4]            # a row-long tensor stays one run
    assert collapse.row_shape([4, 5], 4, 2) == [20]
    assert collapse.row_shape([3, 4], 3, 1) == [3, 4]      # another rank: as it is
    assert collapse.row_shape([7], 1, 1) == [7]


def test_a_reference_that_treats_leading_dimensions_alike_collapses():
    mod = _Mod(lambda x, w: [x * w, (x * w).sum(dim=tuple(range(x.dim() - 1)))])
    cases = [([], [torch.rand(2, 3, 8), torch.rand(8)]), ([], [torch.rand(5, 8), torch.rand(8)])]
    rows = collapse.rows_of(cases, mod)
    assert rows is not None and rows.trailing == 1
    assert [list(t.shape) for t in rows.cases[0][1]] == [[6, 8], [8]]
    assert [list(t.shape) for t in rows.cases[1][1]] == [[5, 8], [8]]


def test_a_reference_that_reads_a_leading_dimension_does_not():
    # sum over dimension -2: over the rows of a rank-2 case, over dimension 1 only of a rank-3 one
    mod = _Mod(lambda x: x.sum(dim=-2))
    assert collapse.rows_of([([], [torch.rand(2, 3, 8)]), ([], [torch.rand(5, 8)])], mod) is None
    # nothing to collapse: every case is already rows
    assert collapse.rows_of([([], [torch.rand(4, 8)])], _Mod(lambda x: x.sum(0))) is None


def test_a_column_sum_over_every_leading_dimension_is_one_kernel(tmp_path):
    # sum over (0,) of [12, 40], over (0, 1) of [3, 5, 40] and of [1, 2, 40]: three graphs, one column kernel
    ref = write_spec(tmp_path, "(x * w).sum(dim=tuple(range(x.dim() - 1)))", "x, w",
                     [[_t([12, 40]), _t([40])], [_t([3, 5, 40]), _t([40])], [_t([1, 2, 40]), _t([40])]])
    d = assert_verified(ref, tmp_path / "out")
    assert d.plan.template != "keyed"
    host = _host(d)
    assert "RowsContext view(context);" in host and "trailing_(1)" in host


def test_an_rms_norm_gradient_over_ranks_two_and_three(tmp_path):
    # dgamma sums over every leading dimension; [1, 2, 64] has a unit dimension the others do not
    body = ("[dy * gamma * rstd - (dy * gamma * x * rstd.pow(3)).sum(dim=-1, keepdim=True) * x / x.shape[-1], "
            "(dy * x * rstd).sum(dim=tuple(range(dy.dim() - gamma.dim())))]")
    cases = [[_t([24, 64], "float16"), _t([24, 64], "float16"), _t([24, 1]), _t([64])],
             [_t([2, 6, 64], "float16"), _t([2, 6, 64], "float16"), _t([2, 6, 1]), _t([64])],
             [_t([1, 2, 64], "float16"), _t([1, 2, 64], "float16"), _t([1, 2, 1]), _t([64])]]
    d = assert_verified(write_spec(tmp_path, body, "dy, x, rstd, gamma", cases), tmp_path / "out")
    assert d.plan.template == "staged"
    host = _host(d)
    assert "using OpContext = RowsContext;" in host
    assert "leading dimensions as rows" in d.plan.params.summary


def test_a_norm_gradient_whose_row_is_the_weights_rank_in_each_case(tmp_path):
    # team task: a layer norm's backward over normalized_shape of one or two dimensions (the module's), ranks 2
    # and 3, float16/float32; mean and rstd one value per row; 2.0 / n and 1.0 / n from the row length; case 3's
    # row (12 x 800) is longer than the UB: streamed, its mean and rstd read per row
    task = DATA / "npukb_norm_grad_ranks"
    d = assert_verified(task, tmp_path / "out")
    assert d.plan.template == "staged"
    host = _host(d)
    assert "trailing_(op->GetInputShape(4)->GetStorageShape().GetDimNum())" in host   # the weight's rank
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "ProcessSplit()" in kernel and "static_cast<float>(cols_)" in kernel
