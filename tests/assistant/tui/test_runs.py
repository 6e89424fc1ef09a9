"""Real work from the chat: /generate on the offline drafter, /bench of a kernel-launch program, /docs,
cancel mid-build and resume after the app was closed. Builds and runs are real (g++, the emulator)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import DataTable, OptionList

from assistant.tui.session import Session
from tests.assistant.tui.helpers import REPO, SIZE, chat_text, make_app, plain, submit, wait_until

ADD_TASK = "examples/tasks/add/kgen-task.toml"


def _rows(app) -> list[list[str]]:
    table = app.query_one("#results-table", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.slow
@pytest.mark.anyio
async def test_generate_on_the_offline_drafter_to_a_verified_result(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, f"/generate {ADD_TASK}")
        assert app.busy and "running: generate add" in plain(app.query_one("#status"))
        await wait_until(pilot, lambda: not app.busy, 600, "the run to finish")
        assert app.view.status == "verified", app.view.message
        flow = plain(app.query_one("#workflow"))
        for label in ("planning", "drafting", "build", "verify", "benchmark", "status: verified"):
            assert label in flow, flow
        assert "build 1/" not in flow, flow        # the offline drafter never repairs: no build budget to show
        project = tmp_path / "out" / "add"
        kernel = next((project / "op_kernel").glob("*.cpp"))
        # the files panel shows what is on disk, kernel first
        names = [o.id for o in app.query_one("#file-list", OptionList).options]
        assert names[0] == f"op_kernel/{kernel.name}"
        assert app.query_one("#files").files[names[0]] == kernel.read_text()
        rows = _rows(app)
        assert [r[:2] for r in rows] == [["fp16-multicore", "PASS"], ["fp32-tail", "PASS"]]
        assert all(float(r[2]) > 0 for r in rows)                      # modelled time of each case
        assert "pipe busy" in plain(app.query_one("#results-detail"))
        assert "**verified**" in chat_text(app) and str(project) in chat_text(app)
        runs = app.session.runs()
        assert len(runs) == 1 and runs[0].status == "verified" and runs[0].kind == "generate"
        assert app.session.state.project == str(project)
        shot = os.environ.get("KGEN_CHAT_SCREENSHOT")      # docs/img/: a real run, looked at by a person
        if shot:
            app.save_screenshot(Path(shot).name, str(Path(shot).parent))
        # /bench with no argument re-checks the current project
        await submit(pilot, "/bench")
        await wait_until(pilot, lambda: not app.busy, 600, "the bench")
        assert app.view.status == "verified" and [r[1] for r in _rows(app)] == ["PASS", "PASS"]


@pytest.mark.anyio
async def test_bench_of_a_kernel_launch_program(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, "/bench examples/add/add.asc")
        await wait_until(pilot, lambda: not app.busy, 300, "the bench")
        assert app.view.status == "verified", app.view.message
        rows = _rows(app)
        assert len(rows) == 1 and rows[0][:2] == ["0", "PASS"] and float(rows[0][2]) > 0
        assert app.query_one("#files").files["add.asc"] == (REPO / "examples/add/add.asc").read_text()
        assert "add: 1/1 cases correct" in chat_text(app)
        # a program that does not build: the compiler's message, not a traceback
        bad = tmp_path / "bad.asc"
        bad.write_text((REPO / "examples/add/add.asc").read_text().replace("DataCopy(", "DataCopyy(", 1))
        await submit(pilot, f"/bench {bad}")
        await wait_until(pilot, lambda: not app.busy, 300, "the failing bench")
        assert app.view.status == "failed" and "build failed" in app.view.message
        assert "BUILD FAILED" in plain(app.query_one("#results-summary"))


@pytest.mark.anyio
async def test_docs_search_answers_in_the_chat(tmp_path, monkeypatch):
    monkeypatch.setenv("KGEN_DATA_DIR", str(tmp_path / "kb"))      # a private index, built by this test
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, "/docs DataCopyPad")
        await wait_until(pilot, lambda: app.chat.texts[-1][0] in ("assistant", "error"), 300, "the docs answer")
        role, text = app.chat.texts[-1]
        assert role == "assistant", text
        first = text.split("**[2]")[0]
        assert "**[1] DataCopyPad" in first and "32" in first        # the API's own page comes first


@pytest.mark.slow
@pytest.mark.anyio
async def test_cancel_mid_build_then_resume_after_the_app_was_closed(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, f"/generate {ADD_TASK}")
        await wait_until(pilot, lambda: any(s.node == "build" and s.state == "running" for s in app.view.steps),
                         300, "the build to start")
        done = app.job_done
        await pilot.press("ctrl+c")
        assert not app.busy and app.view.status == "cancelled"
        assert "cancelled" in plain(app.query_one("#status"))
        assert "■" in plain(app.query_one("#workflow"))               # the build step shows as cancelled
        await submit(pilot, "/help")                                  # still usable
        assert "**Commands**" in app.chat.texts[-1][1] and app.is_running
        sid, run_id = app.session.id, app.session.runs()[-1].run_id
        assert app.session.runs()[-1].status == "cancelled"
    assert done.wait(900), "the cancelled run's thread did not stop"
    # a new app on the same data dir: --resume restores the transcript and continues the run
    app2 = make_app(tmp_path, resume="")
    async with app2.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app2.session.id == sid
        text = chat_text(app2)
        assert f"/generate {ADD_TASK}" in text and "cancelled" in text and "continuing the unfinished run" in text
        await wait_until(pilot, lambda: not app2.busy, 600, "the resumed run")
        assert app2.view.status == "verified", app2.view.message
        assert app2.view.run_id == run_id and f"resumed run `{run_id}`" in chat_text(app2)
        assert [r[1] for r in _rows(app2)] == ["PASS", "PASS"]
        assert Session.open(tmp_path / "data", sid).runs()[-1].status == "verified"
