"""What the chat says about a run: one line (role, markdown) per event worth telling, and the verdict.

Pure functions of the events, so the wording is one place and tested without an app.
"""
from __future__ import annotations

from pathlib import Path

from agent_graph.events import Diagnostics, Event, FilesWritten, Note, RunFinished, RunStarted
from assistant.tui.session import Role

Line = tuple[Role, str]
"""A chat message: who says it and its markdown."""

FINISH_ICONS = {"verified": "✓", "failed": "✗", "cancelled": "■", "unsupported": "!", "invalid": "✗", "error": ""}


def event_line(ev: Event) -> Line | None:
    """The chat line for ``ev``; None for the events only the panels show."""
    if isinstance(ev, RunStarted):
        what = "resumed" if ev.resumed else "started"
        by = f" with **{ev.model}**" if ev.model else ""
        return "system", f"{what} run `{ev.run_id}`{by}"
    if isinstance(ev, Note) and ev.level in ("warning", "error"):
        return ("error" if ev.level == "error" else "system"), ev.text
    if isinstance(ev, FilesWritten) and ev.round > 0:
        return "system", (f"round {ev.round} ({ev.reason}): changed {', '.join(sorted(ev.files))} "
                          "(F3 shows the diff, /undo reverts it)")
    if isinstance(ev, Diagnostics):
        errors = [d for d in ev.items if d.get("severity") == "error"]
        if errors:
            d = errors[0]
            return "system", (f"round {ev.round}: {len(errors)} error(s); first: "
                              f"`{Path(str(d.get('file', ''))).name}:{d.get('line', 0)}: {d.get('message', '')}`")
    return None


def finish_line(ev: RunFinished, project: str) -> Line:
    """The verdict of a run (``project``: where its result lies, "" when none)."""
    role: Role = "error" if ev.status == "error" else "system"
    text = f"{FINISH_ICONS.get(ev.status, '')} **{ev.status}**" + (f": {ev.message}" if ev.message else "")
    if project and ev.status in ("verified", "failed"):
        text += f"\n\nproject: `{project}`"
    return role, text.strip()
