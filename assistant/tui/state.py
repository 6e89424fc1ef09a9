"""What the chat knows besides its widgets: the settings it runs with, the saved session, the current run
and that run's view. No Textual here: the app (assistant.tui.app) renders this state, the commands
(assistant.tui.handlers) change it, and every change that must survive a crash is written to the session.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from agent_graph.api import RunFolder, model_label, new_run_id
from agent_graph.events import Event, RunFinished, RunStarted
from agent_graph.settings import AgentSettings, ModelSettings
from assistant.tui.narration import Line, finish_line
from assistant.tui.runview import RunView
from assistant.tui.session import RunKind, RunRecord, Session, SessionState, list_sessions

OFFLINE_LABEL = model_label(ModelSettings())
"""What a run of the offline drafter names as its model (RunStarted.model)."""
RESUMABLE_KINDS: tuple[RunKind, ...] = ("generate", "fix", "words")   # a bench is run again, not resumed


@dataclass
class ChatState:
    """The chat's settings (changed by /model and /backend), its session on disk and the run on screen."""

    model: ModelSettings
    agent: AgentSettings
    cwd: Path
    output_root: Path | None = None      # where generated projects go (None: the agent's ./kgen-out/<task>)
    session: Session | None = None
    view: RunView = field(default_factory=RunView)
    current_run: RunRecord | None = None

    # ---- derived -------------------------------------------------------------------------------
    @property
    def max_builds(self) -> int:
        """The builds the run on screen may make: one for a bench and for the offline drafter (neither
        repairs), else the first plus the agent's build repairs."""
        if (self.current_run is not None and self.current_run.kind == "bench") or self.view.model == OFFLINE_LABEL:
            return 1
        return 1 + self.agent.build_repairs

    def session_ids(self) -> list[str]:
        return [i.id for i in list_sessions(self.agent.data_dir)]

    def current_project(self) -> Path | None:
        """The op project /bench, /fix and /save act on: the run's, else the session's last one."""
        proj = self.view.target_project or (self.session.state.project if self.session else "")
        return Path(proj) if proj and Path(proj).is_dir() else None

    def status_line(self, job_label: str) -> str:
        """The status bar's markup: model, backend and what is running (or the last run's status)."""
        label = model_label(self.model)
        kind = " (model)" if self.model.configured else ""      # the offline label says it already
        state = f"running: {job_label}" if job_label else (self.view.status if self.view.run_id else "idle")
        return f"[b]{'●' if self.model.configured else '○'} {label}[/b]{kind}  │  backend {self.agent.backend}  │  {state}"

    # ---- the session ---------------------------------------------------------------------------
    def new_session(self, state: SessionState | None = None) -> None:
        """Start a session (``state``: its settings; default: the ones the chat runs with)."""
        self.session = Session.create(self.agent.data_dir, state or SessionState(self.model.url, self.agent.backend))

    def open_session(self, sid: str | None) -> Session:
        """Switch to a saved session (raises SessionError): its settings, its last run replayed into the view."""
        session = Session.open(self.agent.data_dir, sid)
        self.session = session
        self.model.url = session.state.model_url or self.model.url
        self.agent.backend = session.state.backend or self.agent.backend
        runs = session.runs()
        self.view, self.current_run = RunView(), (runs[-1] if runs else None)
        if self.current_run is not None:
            for ev in session.events(self.current_run.run_id):
                self.view.apply(ev)
        return session

    def unfinished_run(self) -> RunRecord | None:
        """The session's last run when the agent can continue it."""
        last = self.current_run
        return last if last is not None and last.kind in RESUMABLE_KINDS and last.resumable else None

    def run_folder_exists(self, run_id: str) -> bool:
        """Whether the agent wrote the run's folder (else it stopped before its first node)."""
        return RunFolder(self.agent.data_dir, run_id).exists

    def note(self, role: str, text: str) -> None:
        """Append a chat message to the session's transcript."""
        if self.session is not None:
            self.session.add_message(role, text)

    def set_model_url(self, url: str | None) -> None:
        self.model.url = url
        if self.session is not None:
            self.session.state.model_url = url
            self.session.save_state()

    def set_backend(self, backend: str) -> None:
        self.agent.backend = backend
        if self.session is not None:
            self.session.state.backend = backend
            self.session.save_state()

    def set_task(self, task: Path) -> None:
        if self.session is not None:
            self.session.state.task = str(task)
            self.session.save_state()

    # ---- runs ----------------------------------------------------------------------------------
    def begin_run(self, kind: RunKind, target: str, label: str, run_id: str | None = None) -> str:
        """Name the agent run before it starts and record it, so a crash before its first event is resumable."""
        run_id = run_id or new_run_id(label)
        self.current_run = RunRecord(run_id, kind, target)
        if self.session is not None:
            self.session.record_run(self.current_run)
        return run_id

    def record(self, ev: Event, kind: RunKind, target: str) -> None:
        """One event of the running job (``kind``/``target``: what it was started as): saved, and applied to the view."""
        if isinstance(ev, RunStarted):
            if self.current_run is None or self.current_run.run_id != ev.run_id:
                self.current_run = RunRecord(ev.run_id, kind, target)
            self.current_run.status = "running"
            if self.session is not None:
                self.session.record_run(self.current_run)
            if not ev.resumed:
                self.view = RunView()
        self.replay(ev)

    def replay(self, ev: Event) -> None:
        """Save ``ev`` under the current run and apply it to the view."""
        if self.session is not None and self.current_run is not None:
            self.session.add_event(self.current_run.run_id, ev)
        self.view.apply(ev)

    def finish(self, ev: RunFinished) -> Line:
        """The run ended: its status and project are saved; returns what the chat says about it."""
        if self.current_run is not None and self.session is not None:
            self.current_run.status = ev.status
            self.session.record_run(self.current_run)
        if self.view.target_project and self.session is not None:
            self.session.state.project = self.view.target_project
            self.session.save_state()
        return finish_line(ev, self.view.target_project)

    def abandon(self) -> None:
        """The app closes while a job runs: the run is recorded as cancelled (resumable)."""
        if self.current_run is not None and self.session is not None:
            self.current_run.status = "cancelled"
            self.session.record_run(self.current_run)
