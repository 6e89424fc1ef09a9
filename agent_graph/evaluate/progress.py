"""Progress of an evaluation for a person: a live line on a terminal, quiet lines otherwise."""
from __future__ import annotations

import sys
import time
from typing import TextIO

from agent_graph.evaluate.types import Progress


def _clock(s: float | None) -> str:
    if s is None:
        return "--:--"
    s = int(s)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


class ProgressPrinter:
    """On a TTY: one line rewritten in place (done/total, passing so far, ETA, the last task); not on a
    TTY: one quiet line per finished candidate, and at most one every ``every`` seconds when many finish."""

    def __init__(self, stream: TextIO | None = None, tty: bool | None = None, every: float = 10.0):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every = every
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        last = p.last
        what = f"{last.task}#{last.sample} {last.stage}{'' if last.outcome == 'ok' else ' ' + last.outcome}" if last else ""
        line = (f"eval: {p.done}/{p.total} candidates, {p.correct} correct"
                + (f" ({p.skipped_resumed} from the checkpoint)" if p.skipped_resumed else "")
                + f", elapsed {_clock(p.elapsed)}, eta {_clock(p.eta)}")
        if self.tty:
            self.stream.write("\r\x1b[2K" + (line + "  " + what)[:160])
            if p.done >= p.total:
                self.stream.write("\n")
            self.stream.flush()
            return
        now = time.monotonic()
        if p.done >= p.total or now - self._last >= self.every or p.total <= 50:
            self._last = now
            self.stream.write(f"{line}  {what}\n")
            self.stream.flush()
