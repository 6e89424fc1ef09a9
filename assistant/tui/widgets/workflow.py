"""The workflow panel: the graph's nodes as they run (planning, drafting, build 2/5, repair, case 3/5...)."""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from assistant.tui.runview import RunView

ICONS = {"running": ("▶", "bold yellow"), "ok": ("✓", "green"), "failed": ("✗", "red"), "cancelled": ("■", "magenta")}
STATUS_STYLE = {"verified": "bold green", "failed": "bold red", "error": "bold red", "unsupported": "yellow", "invalid": "bold red",
                "cancelled": "magenta", "running": "bold yellow", "idle": "dim"}


def step_labels(view: RunView, max_builds: int) -> list[str]:
    """Labels with the round counters a user follows: 'build 2/5', 'repair 1/4', 'verify 3/5 passed'."""
    out, builds, repairs = [], 0, 0
    for s in view.steps:
        label = s.label
        if s.node == "build" and not s.detail:
            builds += 1
            label = f"build {builds}/{max_builds}" if max_builds > 1 else "build"   # no repairs: no budget to show
        elif s.node == "repair" and not s.detail:
            repairs += 1
            label = f"repair {repairs}/{max(1, max_builds - 1)}"
        out.append(label)
    return out


def render_workflow(view: RunView, max_builds: int = 5) -> Group | Text:
    if not view.run_id and not view.steps:
        return Text("No run yet. Type a task path or /generate TASK; /help lists the commands.", style="dim")
    t = Table.grid(padding=(0, 1), expand=True)
    t.add_column(width=1)
    t.add_column(ratio=2, no_wrap=True)
    t.add_column(ratio=3, overflow="ellipsis", no_wrap=True)
    t.add_column(justify="right", width=6)
    labels = step_labels(view, max_builds)
    last_note = view.notes[-1].text if view.notes else ""
    for s, label in zip(view.steps, labels):
        icon, style = ICONS[s.state]
        result = s.result
        if s.state == "running":
            if s.node == "verify" and view.case_total:
                result = f"case {len(view.cases)}/{view.case_total}, {view.cases_passed} passed"
            else:
                result = last_note
        secs = f"{s.seconds:.1f}s" if s.state != "running" and s.seconds else ""
        t.add_row(Text(icon, style=style), Text(label, style="bold" if s.state == "running" else ""),
                  Text(result, style="dim" if s.state == "ok" else style), Text(secs, style="dim"))
    if view.case_total and view.cases:
        marks = Text()
        for i in range(1, view.case_total + 1):
            c = view.cases.get(i)
            marks.append("●" if c and c.status == "pass" else ("●" if c else "○"),
                         style="green" if c and c.status == "pass" else ("red" if c else "dim"))
        t.add_row("", Text("cases"), Text.assemble(marks, f"  {view.cases_passed}/{view.case_total} passed"), "")
    status = Text.assemble(("status: ", "dim"), (view.status, STATUS_STYLE.get(view.status, "")))
    if view.message and not view.running:
        status.append(f" — {view.message}", style="dim")
    head = Text.assemble(("run ", "dim"), (view.run_id or "-", "bold"))
    if view.model:
        head.append(f"  ({view.model})", style="dim")
    return Group(head, t, status)


class WorkflowPanel(Static):
    def show(self, view: RunView, max_builds: int = 5) -> None:
        self.update(render_workflow(view, max_builds))
