"""An input read up to a count the binding passes (``x[:n]``, ``x.narrow(0, 0, rows)``; NPUKernelBench's Isamax and
Isamin): cases that read all of it and cases that read a prefix share one kernel, the host seeing the input cut to
the count (``prefix.py``, ``PrefixContext``). Drafted, built and verified on the emulator; a window that is not a
prefix is not taken for one."""
import shutil
from pathlib import Path

from agent_graph.drafter import Unsupported, draft
from tests.agent_graph.drafter_checks import assert_verified

TASK = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_prefix_rows"


def _host(d):
    return next(t for p, t in d.plan.files.items() if p.startswith("op_host/") and p.endswith(".cpp"))


def test_cases_reading_all_rows_or_the_first_ones_share_a_kernel(tmp_path):
    # team task: rows = 6 of 6, 17 of 40, 3 of 3, 64 of 64, 2 of 9; float32 and float16
    d = assert_verified(TASK, tmp_path / "out")
    host = _host(d)
    assert "PrefixContext view(context);" in host and "GetAttrs()->GetInt(0)" in host
    assert 'this->Attr("rows")' in host and "scale" not in host     # the call passes rows only


def test_a_window_that_is_not_a_prefix_is_not_cut(tmp_path):
    task = tmp_path / "window"
    shutil.copytree(TASK, task)
    ref = task / "validation" / "module.py"
    ref.write_text(ref.read_text().replace("x.narrow(0, 0, self.rows)", "x.narrow(0, 1, self.rows - 1)"))
    d = draft(task)
    assert isinstance(d, Unsupported) or "PrefixContext" not in _host(d)
