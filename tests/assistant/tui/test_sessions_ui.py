"""Sessions from the chat: /sessions lists them, /resume switches; a busy app refuses a second job and
Ctrl+C frees it at once."""
from __future__ import annotations

import threading

import pytest

from agent_graph.events import RunStarted
from assistant.tui.session import Session
from tests.assistant.tui.helpers import SIZE, chat_text, make_app, plain, submit, wait_until


@pytest.mark.anyio
async def test_sessions_list_and_resume_switches_the_transcript(tmp_path):
    old = Session.create(tmp_path / "data")
    old.add_message("user", "an older question")
    old.add_message("system", "an older answer")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await submit(pilot, "hello there")        # words without a model: an error line, but a transcript entry
        await submit(pilot, "/sessions")
        listing = app.chat.texts[-1][1]
        assert f"`{app.session.id}` (this one)" in listing and f"`{old.id}`" in listing
        assert "an older question" in listing
        await submit(pilot, f"/resume {old.id}")
        assert app.session.id == old.id
        text = chat_text(app)
        assert "an older answer" in text and "hello there" not in text
        assert f"resumed session `{old.id}` (0 run(s))" in text


@pytest.mark.anyio
async def test_a_busy_app_refuses_a_second_job_and_ctrl_c_frees_it(tmp_path):
    app = make_app(tmp_path)
    stopped = threading.Event()

    def work(post, cancel):
        post(RunStarted("r-wait", "", "offline drafter", "waiting"))
        cancel.wait(60)          # a step that only ends when cancelled
        stopped.set()

    async with app.run_test(size=SIZE) as pilot:
        app.start_job("generate waiting", "generate", "waiting", work)
        await wait_until(pilot, lambda: app.view.run_id == "r-wait", 30, "the job's first event")
        assert "running: generate waiting" in plain(app.query_one("#status"))
        await submit(pilot, "/bench examples/add/add.asc")
        assert app.chat.texts[-1] == ("error", "generate waiting is running: wait for it or press Ctrl+C to cancel it")
        await pilot.press("ctrl+c")
        assert not app.busy and app.view.status == "cancelled"
        assert stopped.wait(10)              # the job saw the cancel
        assert "generate waiting cancelled" in chat_text(app)
        await pilot.press("ctrl+c")          # nothing running: a hint, no change
        assert app.is_running and app.view.status == "cancelled"
