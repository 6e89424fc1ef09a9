"""kgen chat: F4 shows the results and gives their table the keys, so ``o`` opens the shown case's
timeline picture at once (no click first); Escape hands the keys back to the prompt. A real
``/bench examples/add/add.asc`` in the Pilot app; a stand-in ``xdg-open`` on PATH logs what it opens."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from assistant.tui.widgets.picture import viewer_command
from tests.assistant.tui.helpers import SIZE, make_app, submit, wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the viewer stand-in is a shell script")


@pytest.mark.anyio
async def test_f4_then_o_opens_the_picture_and_escape_returns_to_the_prompt(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "opened.log"
    exe = bin_dir / viewer_command()
    exe.write_text(f'#!/bin/sh\necho "$1" >> "{log}"\n')
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, "/bench examples/add/add.asc")
        await wait_until(pilot, lambda: app.view.report is not None and not app.busy, 300, "the bench")
        png = app.view.report["artifacts"]["timeline_png"]
        assert png and Path(png).is_file()
        prompt = app.query_one("#prompt")
        prompt.focus()
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        assert app.query_one("#tabs").active == "tab-results"
        assert app.focused is app.query_one("#results-table")
        await pilot.press("o")
        await wait_until(pilot, lambda: log.exists() and log.read_text().strip(), 10, "the viewer to start")
        assert log.read_text().splitlines() == [png]
        assert prompt.value == ""                       # the key went to the table, not into the prompt
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is prompt
        await pilot.press("o")
        await pilot.pause()
        assert prompt.value == "o" and log.read_text().splitlines() == [png]   # typed, nothing opened
