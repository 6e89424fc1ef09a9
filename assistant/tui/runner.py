"""The chat's job runner: one job at a time, each under a Textual worker.

A job is a blocking function ``work(post, cancel)`` (assistant.tui.jobs builds them) that reports through
agent events. The app starts it with its ``@work`` method (``KgenChat.run_job``), which runs :meth:`Job.run`
on the job's thread and awaits its end; ``Job.run`` posts each event to the app as a :class:`Job.AgentEvent`
message and a :class:`Job.Ended` when the work returns. Ctrl+C (:meth:`Job.cancel`) and closing the app
cancel the worker and set the job's flag; the agent stops at its next cancel check (between nodes, while
the model streams, between shape cases).

A cancelled job is let go of at once (:meth:`JobRunner.cancel`): the chat is free for the next job while the
thread winds down, and the events it still posts carry a token that is no longer current, so they are dropped.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from textual.message import Message
from textual.worker import Worker

from agent_graph.events import Event, EventSink, RunFinished
from assistant.tui.session import RunKind

JobWork = Callable[[EventSink, threading.Event], object]
"""``work(post, cancel)``: runs to its end, posting agent events; stops early once ``cancel`` is set."""


@dataclass(eq=False)
class Job:
    """One piece of long work the chat started: what it is (label, kind, target) and its worker."""

    token: int                # which job an event belongs to (a later job has a larger token)
    label: str                # what the status line says while it runs, e.g. "generate add"
    kind: RunKind             # what the session records the run as
    target: str               # task path, project path or the user's words
    work: JobWork
    worker: Worker | None = None
    flag: threading.Event = field(default_factory=threading.Event)   # the work's cancel flag
    done: threading.Event = field(default_factory=threading.Event)   # set once the work has returned
    started: bool = False

    class AgentEvent(Message):
        """An agent event the job posted from its thread."""

        def __init__(self, event: Event, token: int) -> None:
            super().__init__()
            self.event, self.token = event, token

    class Ended(Message):
        """The job's work returned (normally, by an exception, or on a cancel)."""

        def __init__(self, token: int) -> None:
            super().__init__()
            self.token = token

    def run(self, post: Callable[[Message], object]) -> None:
        """The job thread's body: run the work (unless already cancelled), posting its messages to ``post``."""
        self.started = True
        cancel = self.flag

        def emit(ev: Event) -> None:
            post(Job.AgentEvent(ev, self.token))

        try:
            if not cancel.is_set():
                self.work(emit, cancel)
        except Exception as e:  # noqa: BLE001 — the jobs already turn failures into events; belt and braces
            emit(RunFinished("", "error", f"{type(e).__name__}: {e}".splitlines()[0]))
        finally:
            self.done.set()
            post(Job.Ended(self.token))

    def cancel(self) -> None:
        """Set the work's flag and cancel its worker."""
        self.flag.set()
        if self.worker is not None:
            self.worker.cancel()
        if not self.started:      # cancelled before its thread began: run() will see the flag and do nothing
            self.done.set()


class JobRunner:
    """Which job is current; the chat runs one at a time."""

    def __init__(self) -> None:
        self._token = 0
        self.current: Job | None = None
        self._last_done = threading.Event()
        self._last_done.set()

    @property
    def busy(self) -> bool:
        return self.current is not None

    @property
    def label(self) -> str:
        return self.current.label if self.current is not None else ""

    @property
    def done(self) -> threading.Event:
        """Set once the last job started has returned (also when none was)."""
        return self._last_done

    def begin(self, label: str, kind: RunKind, target: str, work: JobWork) -> Job:
        """The next job, now current; the caller starts its worker."""
        self._token += 1
        job = Job(self._token, label, kind, target, work)
        self.current, self._last_done = job, job.done
        return job

    def is_current(self, token: int) -> bool:
        return self.current is not None and self.current.token == token

    def release(self) -> None:
        """The current job is over (it finished, or the chat let go of it)."""
        self.current = None

    def cancel(self) -> Job | None:
        """Cancel the current job and let go of it; returns it (None when nothing runs)."""
        job = self.current
        if job is not None:
            job.cancel()
            self.release()
        return job
