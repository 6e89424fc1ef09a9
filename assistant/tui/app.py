"""``kgen chat``: the Textual terminal assistant.

Layout: the chat (messages, status line, prompt) on the left; on the right the workflow panel over
tabs for the files, the last repair's diff and the results. Every panel renders from agent events
(assistant.tui.runview), which a job posts from its thread as :class:`AgentEvent` messages; the slash
commands live in assistant.tui.handlers.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.suggester import Suggester
from textual.widgets import Footer, Header, Input, Static, TabbedContent, TabPane

from agent_graph.events import Event, RunFinished, RunStarted, Token
from agent_graph.settings import AgentSettings, ModelSettings
from assistant.tui import commands as cmds
from assistant.tui.handlers import CommandHandlers
from assistant.tui.jobs import model_label
from assistant.tui.runview import RunView
from assistant.tui.session import RunRecord, Session, SessionState, list_sessions
from assistant.tui.widgets import ChatLog, DiffView, FilesPanel, ResultsPanel, WorkflowPanel

WELCOME = ("**kgen chat** — write, check and benchmark AscendC kernels.\n\n"
           "Type a task path (e.g. `examples/tasks/add`) to generate a kernel for it, a kernel-launch program to "
           "bench it, `/docs QUERY` to search the AscendC docs, or `/help`.")


@dataclass
class ChatConfig:
    model: ModelSettings = field(default_factory=ModelSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    cwd: Path = field(default_factory=Path.cwd)
    resume: str | None = None        # a session id, "" for the most recent one, None for a new session
    output_root: Path | None = None  # where generated projects go (default: the agent's ./kgen-out/<task>)


class AgentEvent(Message):
    """An agent event delivered from a job's thread; ``token`` says which job it belongs to."""

    def __init__(self, event: Event, token: int) -> None:
        super().__init__()
        self.event, self.token = event, token


class JobEnded(Message):
    def __init__(self, token: int) -> None:
        super().__init__()
        self.token = token


class CommandSuggester(Suggester):
    """Grey inline completion of slash commands and their path arguments (Right arrow accepts)."""

    def __init__(self, app: "KgenChat") -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.chat = app

    async def get_suggestion(self, value: str) -> str | None:
        options = cmds.complete(value, self.chat.config.cwd, self.chat.session_ids())
        return options[0] if len(options) == 1 else (cmds.common_prefix(options) or None)


class PromptInput(Input):
    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]

    def action_complete(self) -> None:
        self.app.complete_prompt()  # type: ignore[attr-defined]


class KgenChat(CommandHandlers, App):
    CSS_PATH = "app.tcss"
    TITLE = "kgen chat"
    BINDINGS = [
        Binding("ctrl+c", "cancel_job", "Cancel step", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+l", "clear_chat", "Clear chat"),
        Binding("f2", "show_tab('tab-files')", "Files"),
        Binding("f3", "show_tab('tab-diff')", "Diff"),
        Binding("f4", "show_tab('tab-results')", "Results"),
        Binding("escape", "focus_prompt", "Prompt", show=False),
    ]

    def __init__(self, config: ChatConfig | None = None) -> None:
        super().__init__()
        self.config = config or ChatConfig()
        self.model, self.agent = self.config.model, self.config.agent
        self.session: Session | None = None
        self.view = RunView()
        self.job_token = 0
        self.job_cancel: threading.Event | None = None
        self.job_label = ""
        self.job_done = threading.Event()     # set when the last job's thread has returned
        self.job_done.set()
        self.pending_run: tuple[str, str] | None = None   # (kind, target) of the job whose RunStarted is awaited
        self.current_run: RunRecord | None = None

    # ---- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="⚡")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield ChatLog(id="chat")
                yield Static("", id="completions")
                yield Static("", id="status")
                yield PromptInput(placeholder="a task path, /command or words   (Tab completes, /help)", id="prompt",
                                  suggester=CommandSuggester(self))
            with Vertical(id="right"):
                yield WorkflowPanel(id="workflow")
                with TabbedContent(id="tabs", initial="tab-files"):
                    with TabPane("Files", id="tab-files"):
                        yield FilesPanel(id="files")
                    with TabPane("Diff", id="tab-diff"):
                        yield DiffView(id="diff")
                    with TabPane("Results", id="tab-results"):
                        yield ResultsPanel(id="results")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#workflow", WorkflowPanel).border_title = "workflow"
        self.query_one("#tabs").border_title = "project"
        self.query_one("#chat", ChatLog).border_title = "chat"
        self.query_one("#workflow", WorkflowPanel).show(self.view, self.max_builds)
        if self.config.resume is not None:
            self.open_session(self.config.resume or None, announce=True)
        else:
            self.session = Session.create(self.agent.data_dir, SessionState(self.model.url, self.agent.backend))
            self.chat.add("system", WELCOME)
        self.refresh_status()
        self.query_one("#prompt", PromptInput).focus()

    # ---- small helpers used by the handlers ------------------------------------------------
    @property
    def chat(self) -> ChatLog:
        return self.query_one("#chat", ChatLog)

    @property
    def max_builds(self) -> int:
        return 1 + self.agent.build_repairs

    @property
    def busy(self) -> bool:
        return self.job_cancel is not None

    def say(self, role: str, text: str) -> None:
        """Show a message in the chat and append it to the session transcript."""
        self.flush_stream()
        self.chat.add(role, text)
        if self.session is not None:
            self.session.add_message(role, text)

    def session_ids(self) -> list[str]:
        return [i.id for i in list_sessions(self.agent.data_dir)]

    def refresh_status(self) -> None:
        label = model_label(self.model)
        self.sub_title = label
        kind = "model" if self.model.configured else "offline"
        state = f"running: {self.job_label}" if self.busy else (self.view.status if self.view.run_id else "idle")
        self.query_one("#status", Static).update(
            f"[b]{'●' if self.model.configured else '○'} {label}[/b] ({kind})  │  backend {self.agent.backend}  │  {state}")

    def refresh_panels(self) -> None:
        self.query_one("#workflow", WorkflowPanel).show(self.view, self.max_builds)
        self.query_one("#files", FilesPanel).show_view(self.view)
        self.query_one("#diff", DiffView).show_view(self.view)
        self.query_one("#results", ResultsPanel).show_report(self.view.report)
        self.refresh_status()

    # ---- input -----------------------------------------------------------------------------
    @on(Input.Submitted, "#prompt")
    def _submitted(self, event: Input.Submitted) -> None:
        line = event.value
        event.input.value = ""
        self.show_completions("")
        parsed = cmds.parse(line, self.config.cwd)
        if parsed is None:
            return
        self.say("user", line.strip())
        self.dispatch(parsed)

    @on(Input.Changed, "#prompt")
    def _changed(self, event: Input.Changed) -> None:
        hint: str | Text = ""
        if event.value.startswith("/") and " " not in event.value:
            found = [c for c in cmds.COMMANDS if c.name.startswith(event.value[1:].lower())]
            if 0 < len(found) <= 4:
                hint = Text("\n").join(Text.assemble((f"/{c.name}", "bold"), f" {c.usage}  ", (c.summary, "dim"))
                                        for c in found)
            else:
                hint = "  ".join(f"/{c.name}" for c in found)
        self.show_completions(hint)

    def show_completions(self, hint: str | Text) -> None:
        w = self.query_one("#completions", Static)
        w.update(hint)
        w.set_class(bool(hint), "shown")

    def complete_prompt(self) -> None:
        prompt = self.query_one("#prompt", PromptInput)
        options = cmds.complete(prompt.value, self.config.cwd, self.session_ids())
        if not options:
            return
        best = options[0] if len(options) == 1 else cmds.common_prefix(options)
        if len(best) > len(prompt.value):
            prompt.value = best
            prompt.cursor_position = len(best)
        if len(options) > 1:
            self.show_completions(Text("  ".join(o.rstrip().rsplit(" ", 1)[-1] if " " in o.rstrip() else o
                                                 for o in options[:12])))

    # ---- jobs ------------------------------------------------------------------------------
    def start_job(self, label: str, kind: str, target: str, work: Callable[[Callable[[Event], None], threading.Event], object]) -> None:
        """Run ``work(on_event, cancel)`` on a daemon thread watched by a Textual thread worker.

        The worker returns as soon as the job ends or the app is closing; the daemon thread is left to
        stop at the agent's next cancel check (or with the process), so quitting never waits on a build."""
        if self.busy:
            self.say("error", f"{self.job_label} is running: wait for it or press Ctrl+C to cancel it")
            return
        self.job_token += 1
        token, cancel, done = self.job_token, threading.Event(), threading.Event()
        self.job_cancel, self.job_label, self.job_done = cancel, label, done
        self.pending_run = (kind, target)

        def post(ev: Event) -> None:
            self.post_message(AgentEvent(ev, token))

        def body() -> None:
            try:
                work(post, cancel)
            except Exception as e:  # noqa: BLE001 — the jobs already turn failures into events; belt and braces
                post(RunFinished("", "error", f"{type(e).__name__}: {e}".splitlines()[0]))
            finally:
                done.set()
                self.post_message(JobEnded(token))

        threading.Thread(target=body, name=f"kgen-job-{token}", daemon=True).start()

        def watch() -> None:
            from textual.worker import get_current_worker

            me = get_current_worker()
            while not done.wait(0.1) and not me.is_cancelled:
                pass
        self.run_worker(watch, thread=True, group="job", exit_on_error=False)
        self.refresh_status()

    def _end_job(self) -> None:
        self.job_cancel, self.job_label, self.pending_run = None, "", None
        self.refresh_status()

    @on(JobEnded)
    def _job_ended(self, msg: JobEnded) -> None:
        if msg.token == self.job_token and self.busy:
            self._end_job()

    @on(AgentEvent)
    async def _agent_event(self, msg: AgentEvent) -> None:
        if msg.token != self.job_token or not self.busy:
            return      # a cancelled job still winding down
        ev = msg.event
        if isinstance(ev, RunStarted):
            kind, target = self.pending_run or ("generate", ev.task)
            if self.current_run is None or self.current_run.run_id != ev.run_id:
                self.current_run = RunRecord(ev.run_id, kind, target)
            self.current_run.status = "running"
            if self.session is not None:
                self.session.record_run(self.current_run)
            if not ev.resumed:
                self.view = RunView()
        if self.session is not None and self.current_run is not None:
            self.session.add_event(self.current_run.run_id, ev)
        self.view.apply(ev)
        if isinstance(ev, Token):
            await self.chat.stream(ev.text)
            return
        self.render_event(ev)
        if isinstance(ev, RunFinished):
            self.finish_run(ev)
            self._end_job()

    def flush_stream(self) -> None:
        """Close the model's streamed message (if any) and keep it in the transcript."""
        streamed = self.chat.end_stream()
        if streamed and self.session is not None:
            self.session.add_message("assistant", streamed)

    def finish_run(self, ev: RunFinished) -> None:
        self.flush_stream()
        if self.current_run is not None and self.session is not None:
            self.current_run.status = ev.status
            self.session.record_run(self.current_run)
        if self.view.target_project and self.session is not None:
            self.session.state.project = self.view.target_project
            self.session.save_state()
        role = "error" if ev.status == "error" else "system"
        icon = {"verified": "✓", "failed": "✗", "cancelled": "■", "unsupported": "!", "error": ""}.get(ev.status, "")
        text = f"{icon} **{ev.status}**" + (f": {ev.message}" if ev.message else "")
        if self.view.target_project and ev.status in ("verified", "failed"):
            text += f"\n\nproject: `{self.view.target_project}`"
        self.say(role, text.strip())

    def action_cancel_job(self) -> None:
        if not self.busy:
            self.notify("Nothing is running. Ctrl+Q quits.", timeout=3)
            return
        assert self.job_cancel is not None
        self.job_cancel.set()
        run_id = self.current_run.run_id if self.current_run else ""
        ev = RunFinished(run_id, "cancelled", f"{self.job_label} cancelled" +
                         (f"; /resume {self.session.id} or `kgen chat --resume` continues it" if self.session else ""))
        self.job_token += 1   # detach: the thread's remaining events are ignored
        self.view.apply(ev)
        if self.session is not None and self.current_run is not None:
            self.session.add_event(run_id, ev)
        self.finish_run(ev)
        self._end_job()
        self.refresh_panels()

    async def action_quit(self) -> None:
        if self.job_cancel is not None:
            self.job_cancel.set()
            if self.current_run is not None and self.session is not None:
                self.current_run.status = "cancelled"
                self.session.record_run(self.current_run)
        self.exit()

    def action_clear_chat(self) -> None:
        self.chat.clear()

    def action_show_tab(self, tab: str) -> None:
        self.query_one("#tabs", TabbedContent).active = tab
        if tab == "tab-results":    # the table takes the keys: o opens the case's picture, arrows pick a case
            self.call_after_refresh(self.query_one("#results-table").focus)

    def action_focus_prompt(self) -> None:
        self.query_one("#prompt", PromptInput).focus()
