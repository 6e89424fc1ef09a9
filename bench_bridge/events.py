"""What a bench reports while it works: typed progress events (issue 21).

``bench(path, opts, on_event)`` calls ``on_event`` with one of these as each step starts. Front ends
render them: the CLI prints ``event.text`` (``str(event)`` is the same line), the chat moves its
build/verify panel on :class:`PhaseStarted`, the editor shows the text in its progress bar. Nobody
parses the text: the phase and the case are fields.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Union

BenchPhase = Literal["read", "build", "reference", "run", "artifacts"]
"""``read``: the task or the op definition is read; ``build``: kernel (and host) code is compiled;
``reference``: the PyTorch reference runs; ``run``: the kernel runs on the cases and is verified;
``artifacts``: traces and timeline pictures are written."""


@dataclass(frozen=True)
class PhaseStarted:
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
