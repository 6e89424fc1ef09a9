"""The state of one agent run as the panels show it, rebuilt from the run's events alone.

``RunView.apply(event)`` is a pure reducer: the live app feeds it events as they arrive, and a resumed
session feeds it the saved ``events/<run_id>.jsonl``; both end in the same view.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Literal

from agent_graph.api import RunStatus
from agent_graph.events import (CaseResult, Diagnostics, Event, FilesWritten, NodeFinished, NodeStarted, Note, Report,
                                RunFinished, RunStarted, Token)

NODE_LABELS = {"understand": "understanding", "plan": "planning", "retrieve": "retrieving docs", "draft": "drafting",
               "build": "build", "repair": "repair", "verify": "verify", "benchmark": "benchmark", "report": "report"}
StepState = Literal["running", "ok", "failed", "cancelled"]


@dataclass
class Step:
    node: str
    detail: str = ""
    state: StepState = "running"
    result: str = ""          # NodeFinished.detail
    seconds: float = 0.0

    @property
    def label(self) -> str:
        return self.detail or NODE_LABELS.get(self.node, self.node)


@dataclass
class RunView:
    run_id: str = ""
    model: str = ""
    task: str = ""
    run_dir: str = ""
    status: RunStatus | Literal["idle"] = "idle"
    message: str = ""
    project: str = ""         # the run's final project (Report / RunFinished), else the last FilesWritten folder
    final_project: str = ""
    steps: list[Step] = field(default_factory=list)
    rounds: list[FilesWritten] = field(default_factory=list)
    diagnostics: dict[int, list[dict]] = field(default_factory=dict)
    cases: dict[int, CaseResult] = field(default_factory=dict)
    case_total: int = 0
    report: dict | None = None
    notes: list[Note] = field(default_factory=list)
    tokens: str = ""

    def apply(self, ev: Event) -> None:
        if isinstance(ev, RunStarted):
            resumed_from = self if ev.resumed and ev.run_id == self.run_id else None
            if resumed_from is None:
                self.__init__()  # a fresh run: forget the previous one
            self.run_id, self.model, self.task, self.run_dir, self.status = ev.run_id, ev.model, ev.task, ev.run_dir, "running"
        elif isinstance(ev, NodeStarted):
            self.steps.append(Step(ev.node, ev.detail))
        elif isinstance(ev, NodeFinished):
            step = next((s for s in reversed(self.steps) if s.node == ev.node and s.state == "running"), None)
            if step is None:
                step = Step(ev.node)
                self.steps.append(step)
            step.state, step.result, step.seconds = ("ok" if ev.ok else "failed"), ev.detail, ev.seconds
        elif isinstance(ev, Token):
            self.tokens += ev.text
        elif isinstance(ev, FilesWritten):
            self.rounds.append(ev)
            if ev.project:
                self.project = ev.project
        elif isinstance(ev, Diagnostics):
            self.diagnostics[ev.round] = list(ev.items)
        elif isinstance(ev, CaseResult):
            if ev.index == 1:
                self.cases = {}
            self.cases[ev.index] = ev
            self.case_total = ev.total
        elif isinstance(ev, Note):
            self.notes.append(ev)
        elif isinstance(ev, Report):
            self.report = ev.report
            if ev.project:
                self.project = self.final_project = ev.project
        elif isinstance(ev, RunFinished):
            self.status, self.message = ev.status, ev.message
            if ev.project:
                self.project = self.final_project = ev.project
            for s in self.steps:
                if s.state == "running":
                    s.state = "cancelled" if ev.status == "cancelled" else "failed"

    # ---- derived ---------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def target_project(self) -> str:
        """Where the run's result lives on disk (what /bench, /save and /undo act on)."""
        return self.final_project or self.project

    @property
    def cases_passed(self) -> int:
        return sum(1 for c in self.cases.values() if c.status == "pass")

    def files(self) -> dict[str, str]:
        """The newest text of every file, over all rounds."""
        out: dict[str, str] = {}
        for r in self.rounds:
            out.update(r.files)
        return out

    def files_before(self, index: int) -> dict[str, str]:
        out: dict[str, str] = {}
        for r in self.rounds[:index]:
            out.update(r.files)
        return out

    def round_diff(self, index: int = -1) -> str:
        """Unified diff of what round ``index`` changed (the last repair by default); "" for the first draft."""
        if not self.rounds:
            return ""
        index = index % len(self.rounds)
        if index == 0:
            return ""
        before, changed = self.files_before(index), self.rounds[index].files
        chunks = []
        for path in sorted(changed):
            old = before.get(path, "")
            if old == changed[path]:
                continue
            chunks.extend(difflib.unified_diff(old.splitlines(keepends=True), changed[path].splitlines(keepends=True),
                                               f"a/{path}", f"b/{path}", n=2))
        return "".join(chunks)
