"""The results panel shows the timeline picture a profiled bench names in its report (``artifacts``):
a real ``/bench examples/add/add.asc`` in kgen chat, the picture drawn in 24-bit colour terminals, the
path and the text chart elsewhere, and ``o`` handing the PNG to the system viewer (a stand-in
``xdg-open`` on PATH records what it was asked to open)."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from assistant.tui.widgets.picture import viewer_command
from assistant.tui.widgets.results import ResultsPanel, timeline_png, trace_json
from tests.assistant.tui.helpers import SIZE, make_app, plain, submit, wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the viewer stand-in is a shell script")


def _fake_viewer(tmp_path: Path, monkeypatch) -> Path:
    """An ``xdg-open`` (``open`` on macOS) that appends its argument to a log file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "opened.log"
    exe = bin_dir / viewer_command()
    exe.write_text(f'#!/bin/sh\necho "$1" >> "{log}"\n')
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return log


def _flat(s: str) -> str:
    """The panel's text without the line breaks its width puts into long paths."""
    return "".join(s.split())


def _notes(app) -> list[tuple[str, str]]:
    return [(n.message, n.severity) for n in app._notifications]


async def _bench_add(pilot, app) -> dict:
    await submit(pilot, "/bench examples/add/add.asc")
    await wait_until(pilot, lambda: app.view.report is not None and not app.busy, 300, "the bench")
    app.action_show_tab("tab-results")
    await pilot.pause()
    return app.view.report


@pytest.mark.anyio
async def test_bench_shows_its_timeline_picture_and_o_opens_it(tmp_path, monkeypatch):
    monkeypatch.setenv("COLORTERM", "truecolor")
    log = _fake_viewer(tmp_path, monkeypatch)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        rep = await _bench_add(pilot, app)
        png = rep["artifacts"]["timeline_png"]
        assert png and Path(png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        detail = plain(app.query_one("#results-detail"))
        assert _flat(f"timeline picture: {png} (o: open)") in _flat(detail)
        assert _flat(f"trace: {rep['artifacts']['trace']} (open in Perfetto / chrome://tracing)") in _flat(detail)
        assert "▀" in detail                          # drawn in half blocks: this terminal has 24-bit colour
        assert any(line.startswith("MTE2 ") and "█" in line for line in detail.splitlines())   # the text chart stays
        with Image.open(png) as im:                   # 56 cells wide, two pixel rows per cell, aspect kept
            rows = round(im.height * 56 / im.width / 2)
        assert abs(sum(1 for line in detail.splitlines() if line.startswith("▀")) - rows) <= 1
        app.query_one("#results-table").focus()
        await pilot.press("o")
        await wait_until(pilot, lambda: log.exists() and log.read_text().strip(), 10, "the viewer to start")
        assert log.read_text().split("\n")[0] == png
        assert (f"opened {Path(png).name} with {viewer_command()}", "information") in _notes(app)


@pytest.mark.anyio
async def test_without_24bit_colour_the_path_and_chart_show_and_no_viewer_is_an_error(tmp_path, monkeypatch):
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.delenv("TERM_PROGRAM", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    empty = tmp_path / "nobin"
    empty.mkdir()
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        rep = await _bench_add(pilot, app)
        png = rep["artifacts"]["timeline_png"]
        assert png, rep
        detail = plain(app.query_one("#results-detail"))
        assert _flat(f"timeline picture: {png} (o: open)") in _flat(detail) and "▀" not in detail
        assert any(line.startswith("MTE2 ") for line in detail.splitlines())
        monkeypatch.setenv("PATH", str(empty))        # no viewer command at all
        app.query_one("#results-table").focus()
        await pilot.press("o")
        await pilot.pause()
        msg, sev = _notes(app)[-1]
        assert sev == "error" and f"no '{viewer_command()}' command here; the file is {png}" in msg, msg


@pytest.mark.anyio
async def test_o_without_a_profile_says_so(tmp_path, monkeypatch):
    log = _fake_viewer(tmp_path, monkeypatch)
    from textual.app import App

    class Host(App):
        def compose(self):
            yield ResultsPanel(id="results")

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        report = {"task": "t", "compiled": True, "correct": True, "artifacts": {"cases": {}},
                  "cases": [{"case_id": "0", "status": "pass", "input_shapes": [], "outputs": []}]}
        app.query_one(ResultsPanel).show_report(report)
        app.query_one("#results-table").focus()
        await pilot.press("o")
        await pilot.pause()
        time.sleep(0.2)
        assert not log.exists()
        assert _notes(app)[-1] == ("no timeline picture for this case (bench it with a profile)", "warning")


def test_each_case_shows_its_own_files_and_a_case_that_did_not_run_none():
    arts = {"dir": "/r", "trace": "/r/case-a.trace.json", "timeline_png": "/r/case-a.timeline.png", "case_id": "a",
            "cases": {"a": {"trace": "/r/case-a.trace.json", "timeline_png": "/r/case-a.timeline.png"},
                      "b": {"trace": "/r/case-b.trace.json", "timeline_png": None}}}
    report = {"artifacts": arts}
    assert timeline_png(report, {"case_id": "a"}) == "/r/case-a.timeline.png"
    assert trace_json(report, {"case_id": "b"}) == "/r/case-b.trace.json" and timeline_png(report, {"case_id": "b"}) == ""
    assert timeline_png(report, {"case_id": "c"}) == ""          # errored before its kernel ran: no other case's picture
    old = {"artifacts": {"timeline_png": "/x.png"}}              # a report naming one picture only
    assert timeline_png(old, {"case_id": "0"}) == "/x.png" and timeline_png({}, {"case_id": "0"}) == ""
