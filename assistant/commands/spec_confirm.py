"""``kgen generate --words``: show the spec the model wrote (reference source and shape cases) and ask
the user whether to use it, before any kernel is drafted.

``make_confirm`` builds the ``confirm`` callback that ``agent_graph.api.run`` calls with the spec path:
on a terminal it asks "Use this reference? [Y/n]" (Enter = yes); without a terminal it shows the spec,
says it proceeds without asking, and returns True. Ctrl-C while asking (the run's cancel flag) is a no.
"""
from __future__ import annotations

import select
import sys
import threading
from pathlib import Path
from typing import Callable, TextIO

QUESTION = "Use this reference? [Y/n] "


def _tensor(t: dict) -> str:
    return f"{t.get('dtype', 'float32')}{list(t.get('shape', []))}"


def describe_case(case_id: str, params: dict) -> str:
    """One line per shape case: ``<id>: inputs float16[8, 4096]; args [..]``."""
    parts = []
    inputs = params.get("inputs")
    if inputs:
        parts.append("inputs " + ", ".join(_tensor(t) if isinstance(t, dict) else str(t) for t in inputs))
    for key in ("args", "init", "attrs"):
        if params.get(key):
            parts.append(f"{key} {params[key]}")
    if not inputs:
        parts.extend(f"{k}={v}" for k, v in params.items() if k not in ("args", "init", "attrs"))
    return f"{case_id}: {'; '.join(parts) or '(no parameters)'}"


def format_spec(spec: Path) -> str:
    """The reference source and the shape cases of the kgen spec at ``spec``, as the user reads them."""
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import TaskError, load_task

    try:
        task = load_task(spec)
    except TaskError as e:
        return f"(the spec cannot be read: {e})"
    try:
        ref = task.reference.read_text().rstrip()
    except OSError as e:
        ref = f"(cannot read {task.reference}: {e.strerror})"
    lines = [f"reference ({task.reference}):", *(("    " + x).rstrip() for x in ref.splitlines()),
             f"shape cases ({len(task.cases)}, from {spec}):", *("    " + describe_case(c.id, c.params) for c in task.cases)]
    return "\n".join(lines)


def parse_answer(text: str) -> bool | None:
    """True for Enter / y / yes, False for n / no, None for anything else (ask again)."""
    a = text.strip().lower()
    if a in ("", "y", "yes"):
        return True
    if a in ("n", "no"):
        return False
    return None


def _read_line(stdin: TextIO, cancel: threading.Event) -> str | None:
    """A line from ``stdin``; None on end of input or when ``cancel`` is set (Ctrl-C in the main thread)."""
    while not cancel.is_set():
        try:
            ready, _, _ = select.select([stdin], [], [], 0.2)
        except (OSError, ValueError):       # not selectable: block instead
            ready = [stdin]
        if ready:
            line = stdin.readline()
            return line if line else None
    return None


def make_confirm(interactive: bool, cancel: threading.Event, stdin: TextIO | None = None,
                 out: TextIO | None = None) -> Callable[[Path], bool]:
    """The ``confirm`` callback for ``api.run``; ``interactive`` False shows the spec and proceeds."""
    def confirm(spec: Path) -> bool:
        o = out or sys.stderr
        print(format_spec(spec), file=o, flush=True)
        if not interactive:
            print("kgen: note: no terminal to ask on: using the model's reference and cases (--yes skips this "
                  "question)", file=o, flush=True)
            return True
        while True:
            print(f"kgen: {QUESTION}", end="", file=o, flush=True)
            line = _read_line(stdin or sys.stdin, cancel)
            if line is None:
                print("", file=o, flush=True)
                return False
            answer = parse_answer(line)
            if answer is not None:
                return answer
            print("kgen: please answer y or n", file=o, flush=True)
    return confirm
