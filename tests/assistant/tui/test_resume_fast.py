"""Reopening a session whose run was cut off before the agent wrote anything starts it again under its id."""
from __future__ import annotations

import pytest

from assistant.tui.session import RunRecord, Session
from tests.assistant.tui.helpers import REPO, SIZE, chat_text, make_app, wait_until


@pytest.mark.anyio
async def test_a_run_killed_before_its_first_event_restarts_under_the_same_id(tmp_path):
    task = str(REPO / "examples/tasks/add/kgen-task.toml")
    s = Session.create(tmp_path / "data")
    s.add_message("user", f"/generate {task}")
    s.record_run(RunRecord("20261201-000000-add-cut", "generate", task))      # status "running": never finished
    app = make_app(tmp_path, resume=s.id)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.busy, 10, "the restarted job")
        assert app.current_run.run_id == "20261201-000000-add-cut" and app.job_label == "generate add"
        assert "continuing the unfinished run `20261201-000000-add-cut`" in chat_text(app)
        await wait_until(pilot, lambda: app.view.run_id == "20261201-000000-add-cut", 120, "the agent's RunStarted")
        done = app.job_done
        await pilot.press("ctrl+c")
        assert app.view.status == "cancelled"
        assert Session.open(tmp_path / "data", s.id).runs()[-1].status == "cancelled"
    assert done.wait(120)
