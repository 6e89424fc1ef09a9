"""The job runner: a job runs under a Textual worker; cancelling the worker (closing the app) or the job
(Ctrl+C) sets its cancel flag; a job cancelled before its thread began never runs."""
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
    job.run(posted.append)                         # the thread starting late sees the flag
    assert ran == [] and [type(m) for m in posted] == [Job.Ended]


def test_a_job_that_raises_ends_with_an_error_event():
    posted = []
    runner = JobRunner()

    def work(post, cancel):
        raise RuntimeError("boom\nsecond line")
    job = runner.begin("bench x", "bench", "x", work)
    job.run(posted.append)
    (ev, end) = posted
    assert isinstance(ev, Job.AgentEvent) and ev.token == job.token
    assert ev.event.status == "error" and ev.event.message == "RuntimeError: boom"
    assert isinstance(end, Job.Ended) and job.done.is_set()


@pytest.mark.anyio
async def test_closing_the_app_cancels_the_job_through_its_worker(tmp_path):
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
        job = app.jobs.current
        assert flags == [job.flag] and job.worker.is_running and not stopped.is_set()
        sid = app.session.id
        job.worker.cancel()                               # what closing the app does to every worker
        await wait_until(pilot, stopped.is_set, 10, "the job to see the cancel")
        await wait_until(pilot, lambda: not app.busy, 10, "the job's end")
        app.start_job("generate waiting", "generate", "waiting", work)
        await wait_until(pilot, lambda: len(flags) == 2, 10, "the second job")
        await pilot.press("ctrl+q")
    assert flags[1].wait(10)                              # the job saw the cancel
    assert Session.open(tmp_path / "data", sid).runs()[-1].status == "cancelled"
