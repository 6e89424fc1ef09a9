"""What a bench reports while it works: typed progress events (issue 21).

``bench(path, opts, on_event)`` calls ``on_event`` with one of these as each step starts. Front ends
render them: the CLI prints ``event.text`` (``str(event)`` is the same line), the chat moves its
build/verify panel on :class:`PhaseStarted`, the editor shows the text in its progress bar. Nobody
parses the text: the phase and the case are fields.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Union

BenchPhase = Literal["reference", "read", "build", "run"]
"""``reference``: the PyTorch reference runs (all cases, in a child process); ``read``: the op definition
of the project is read; ``build``: kernel and host code are compiled (a task's project once per dtype
combination, just before the first case that needs it); ``run``: a kernel-launch program runs. A task's
kernel runs case by case: each is a :class:`CaseStarted`.

Order for a task: reference, read, then per case [build] CaseStarted; for a kernel-launch program:
build, run. Notes (:class:`BenchNote`) may come between any two."""


@dataclass(frozen=True)
class PhaseStarted:
    """The bench enters ``phase``; ``text`` says what it does ("building add.asc")."""
    phase: BenchPhase
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class CaseStarted:
    """Case ``index`` (from 1) of ``total`` starts running on the backend."""
    case_id: str
    index: int
    total: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class BenchNote:
    """Something worth a line that changes no phase (a missing trace file, a skipped picture)."""
    text: str

    def __str__(self) -> str:
        return self.text


BenchEvent = Union[PhaseStarted, CaseStarted, BenchNote]
BenchEventSink = Callable[[BenchEvent], None]


def ignore(_event: BenchEvent) -> None:
    """The sink used when the caller gives none."""
