"""The job runner: a job runs on a Textual thread worker whose cancelled_event is its cancel flag; Ctrl+C
and closing the app cancel it; a job cancelled before its thread began never runs."""
from __future__ import annotations

import threading

import pytest

from agent_graph.events import RunStarted
from assistant.tui.runner import Job, JobRunner
from assistant.tui.session import Session
from tests.assistant.tui.helpers import SIZE, make_app, wait_until


def test_a_job_cancelled_before_its_thread_began_never_runs():
    ran, posted = [], []
    runner = JobRunner()
    job = runner.begin("generate x", "generate", "x", lambda post, cancel: ran.append(1))
    assert runner.busy and runner.label == "generate x" and not runner.done.is_set()
    assert runner.cancel() is job and not runner.busy
    assert job.done.is_set()                       # nothing to wait for
    flag = threading.Event()
    flag.set()
    job.run(flag, posted.append)                   # the thread starting late sees the flag
    assert ran == [] and [type(m) for m in posted] == [Job.Ended]


def test_a_job_that_raises_ends_with_an_error_event():
    posted = []
    runner = JobRunner()

    def work(post, cancel):
        raise RuntimeError("boom\nsecond line")
    job = runner.begin("bench x", "bench", "x", work)
    job.run(threading.Event(), posted.append)
    (ev, end) = posted
    assert isinstance(ev, Job.AgentEvent) and ev.token == job.token
    assert ev.event.status == "error" and ev.event.message == "RuntimeError: boom"
    assert isinstance(end, Job.Ended) and job.done.is_set()


@pytest.mark.anyio
async def test_the_cancel_flag_is_the_workers_and_quitting_cancels_the_job(tmp_path):
    app = make_app(tmp_path)
    flags: list[threading.Event] = []
    stopped = threading.Event()

    def work(post, cancel):
        flags.append(cancel)
        post(RunStarted("r-quit", "", "offline drafter", "waiting"))
        cancel.wait(60)
        stopped.set()

    async with app.run_test(size=SIZE) as pilot:
        app.start_job("generate waiting", "generate", "waiting", work)
        await wait_until(pilot, lambda: app.view.run_id == "r-quit", 30, "the job's first event")
        worker = app.jobs.current.worker
        assert flags == [worker.cancelled_event] and not stopped.is_set()
        sid = app.session.id
        await pilot.press("ctrl+q")
    assert stopped.wait(10)                               # the job saw the cancel
    assert Session.open(tmp_path / "data", sid).runs()[-1].status == "cancelled"
