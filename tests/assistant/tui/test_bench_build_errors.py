"""Issue 22 item 2: ``/bench`` of a kernel that does not compile shows the compiler's diagnostics
(``file:line: message``) in the chat and in the results panel, not only "build failed with 1 error(s)",
"0/0 cases" and an empty table. A real ``/bench`` in the Pilot app of examples/add/add.asc with one
wrong API name (``AscendC::Addd``), which g++/clang++ reject at the kernel's line."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.assistant.tui.helpers import REPO, SIZE, chat_text, make_app, plain, submit, wait_until


def _broken(tmp_path: Path) -> tuple[Path, int]:
    src = (REPO / "examples" / "add" / "add.asc").read_text()
    assert "AscendC::Add(z, x, y, TILE);" in src
    bad = tmp_path / "broken_add.asc"
    bad.write_text(src.replace("AscendC::Add(z, x, y, TILE);", "AscendC::Addd(z, x, y, TILE);"))
    line = next(i for i, t in enumerate(bad.read_text().splitlines(), 1) if "Addd" in t)
    return bad, line


@pytest.mark.anyio
async def test_bench_of_a_kernel_that_does_not_compile_shows_the_compiler_error(tmp_path):
    bad, line = _broken(tmp_path)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, f"/bench {bad}")
        await wait_until(pilot, lambda: app.view.status not in ("idle", "running") and not app.busy, 300, "the bench")
        text = chat_text(app)
        assert f"broken_add.asc:{line}" in text and "Addd" in text, text
        summary = plain(app.query_one("#results-summary"))
        assert "BUILD FAILED" in summary
        assert f"broken_add.asc:{line}: error:" in summary and "Addd" in summary, summary
        assert "0/0 cases" not in summary
        assert not app.query_one("#results-table").display    # no empty table under the errors
