"""A float sum over an inner dimension (the col template) adds its rows in PyTorch's CPU order (its cascade sum:
blocks of 2^p rows, p = max(4, ceil(log2(rows)) / 4), moving up four levels), so thousands of rows give PyTorch's
own value, not a running total rounded once per row. Drafted, built and run on the emulator; the rule by hand
below (numpy), checked against torch."""
import numpy as np
import torch

from agent_graph.drafter import Unsupported, draft, write_project
from bench_bridge.bench import BenchOptions, bench
from tests.agent_graph.drafter_checks import write_spec


def _cascade(rows: np.ndarray) -> np.ndarray:
    """PyTorch's order of a float32 sum over the rows of ``rows`` (numpy, one float32 rounding per add)."""
    size = rows.shape[0]
    power = max(4, (int(size - 1).bit_length() if size > 2 else 1) // 4)
    step, mask = 1 << power, (1 << power) - 1
    acc = [np.zeros(rows.shape[1], np.float32) for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            acc[0] = acc[0] + rows[i]
            i += 1
        for j in range(1, 4):
            acc[j], acc[j - 1] = acc[j] + acc[j - 1], np.zeros_like(acc[0])
            if i & (mask << (j * power)):
                break
    for r in rows[i:]:
        acc[0] = acc[0] + r
    for j in range(1, 4):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def test_the_order_by_hand_is_pytorchs():
    torch.manual_seed(0)
    for shape in ([4096, 64], [1000, 128], [20000, 64]):
        x = torch.randn(shape) * 3
        running = np.zeros(shape[1], np.float32)
        for r in x.numpy():
            running = running + r
        assert np.array_equal(_cascade(x.numpy()), x.sum(0).numpy())
        assert not np.array_equal(running, x.sum(0).numpy())     # a running total is another value


def test_a_long_column_sum_is_pytorchs_value_exactly(tmp_path):
    # over 4096 rows of [4096, 64]; over the middle 1000 of [3, 1000, 128]; and a float16 input summed in float
    ref = write_spec(tmp_path, "x.sum(dim=-2)", "x",
                     [['{ shape = [4096, 64], dtype = "float32" }'], ['{ shape = [3, 1000, 128], dtype = "float32" }']])
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    assert d.plan.template == "col"
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "CascadeStep(acc" in kernel
    rep = bench(ref, BenchOptions(project=write_project(d.plan, tmp_path / "project"), timeout=600))
    assert rep.correct, rep.message
    for case in rep.cases:
        assert [o.max_abs_error for o in case.outputs] == [0.0], case.case_id


def test_a_maximum_over_rows_has_no_cascade(tmp_path):
    ref = write_spec(tmp_path, "x.amax(dim=0)", "x", [['{ shape = [40, 64], dtype = "float32" }']])
    d = draft(ref)
    assert not isinstance(d, Unsupported), str(d)
    kernel = next(t for p, t in d.plan.files.items() if p.startswith("op_kernel/"))
    assert "Cascade" not in kernel and "lv_" not in kernel
