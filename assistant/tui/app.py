"""``kgen chat``: the Textual terminal assistant (the app shell).

Layout: the chat (messages, hint line, status line, prompt) on the left; on the right the workflow panel
over tabs for the files, the last repair's diff and the results. The pieces:

- the widgets (assistant.tui.widgets) render a RunView or text and post their own messages;
- the chat's state (assistant.tui.state): settings, the saved session, the current run and its view;
- the commands (assistant.tui.handlers): what each slash command, path or sentence does;
- the jobs (assistant.tui.jobs) run on one thread worker at a time (:meth:`KgenChat.run_job`, ``@work``);
  their agent events arrive as ``Job.AgentEvent`` messages (assistant.tui.runner) and are rendered here.
"""
from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, TabbedContent, TabPane

from agent_graph.api import model_label
from agent_graph.events import Event, FilesWritten, Report, RunFinished, Token
from agent_graph.settings import AgentSettings, ModelSettings
from assistant.tui import commands as cmds
from assistant.tui import jobs
from assistant.tui.handlers import TAB_FILES, Commands
from assistant.tui.narration import event_line
from assistant.tui.runner import Job, JobRunner, JobWork
from assistant.tui.runview import RunView
from assistant.tui.session import Role, RunKind, RunRecord, Session
from assistant.tui.state import ChatState
from assistant.tui.widgets import (ChatLog, CompletionHint, DiffView, FilesPanel, PromptInput, ResultsPanel, StatusLine,
                                   WorkflowPanel)

WELCOME = ("**kgen chat** — write, check and benchmark AscendC kernels.\n\n"
           "Type a task path (e.g. `examples/tasks/add`) to generate a kernel for it, a kernel-launch program to "
           "bench it, `/docs QUERY` to search the AscendC docs, or `/help`.")
TAB_DIFF, TAB_RESULTS = "tab-diff", "tab-results"


@dataclass
class ChatConfig:
    model: ModelSettings = field(default_factory=ModelSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    cwd: Path = field(default_factory=Path.cwd)
    resume: str | None = None        # a session id, "" for the most recent one, None for a new session
    output_root: Path | None = None  # where generated projects go (default: the agent's ./kgen-out/<task>)


class KgenChat(App):
    CSS_PATH = "app.tcss"
    TITLE = "kgen chat"
    BINDINGS = [
        Binding("ctrl+c", "cancel_job", "Cancel step", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("ctrl+l", "clear_chat", "Clear chat"),
        Binding("f2", f"show_tab('{TAB_FILES}')", "Files"),
        Binding("f3", f"show_tab('{TAB_DIFF}')", "Diff"),
        Binding("f4", f"show_tab('{TAB_RESULTS}')", "Results"),
        Binding("escape", "focus_prompt", "Prompt", show=False),
    ]

    def __init__(self, config: ChatConfig | None = None) -> None:
        super().__init__()
        self.config = config or ChatConfig()
        self.state = ChatState(self.config.model, self.config.agent, self.config.cwd, self.config.output_root)
        self.jobs = JobRunner()
        self.commands = Commands(self, self.state)

    # ---- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header(icon="⚡")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield ChatLog(id="chat")
                yield CompletionHint("", id="completions")
                yield StatusLine("", id="status")
                yield PromptInput(lambda line: cmds.complete(line, self.state.cwd, self.state.session_ids()),
                                  placeholder="a task path, /command or words   (Tab completes, /help)", id="prompt")
            with Vertical(id="right"):
                yield WorkflowPanel(id="workflow")
                with TabbedContent(id="tabs", initial=TAB_FILES):
                    with TabPane("Files", id=TAB_FILES):
                        yield FilesPanel(id="files")
                    with TabPane("Diff", id=TAB_DIFF):
                        yield DiffView(id="diff")
                    with TabPane("Results", id=TAB_RESULTS):
                        yield ResultsPanel(id="results")
        yield Footer()

    def on_mount(self) -> None:
        self.workflow.border_title = "workflow"
        self.tabs.border_title = "project"
        self.chat.border_title = "chat"
        self.workflow.show(self.view, self.state.max_builds)
        if self.config.resume is not None:
            self.commands.open_session(self.config.resume or None, announce=True)
        else:
            self.state.new_session()
            self.chat.add("system", WELCOME)
        self.refresh_status()
        self.prompt.focus()

    # ---- the widgets -----------------------------------------------------------------------
    @property
    def chat(self) -> ChatLog:
        return self.query_one(ChatLog)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    @property
    def completions(self) -> CompletionHint:
        return self.query_one(CompletionHint)

    @property
    def status_line(self) -> StatusLine:
        return self.query_one(StatusLine)

    @property
    def workflow(self) -> WorkflowPanel:
        return self.query_one(WorkflowPanel)

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one(TabbedContent)

    @property
    def files(self) -> FilesPanel:
        return self.query_one(FilesPanel)

    @property
    def diff(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def results(self) -> ResultsPanel:
        return self.query_one(ResultsPanel)

    # ---- the state, as the commands and the tests read it ----------------------------------
    @property
    def model(self) -> ModelSettings:
        return self.state.model

    @property
    def agent(self) -> AgentSettings:
        return self.state.agent

    @property
    def session(self) -> Session | None:
        return self.state.session

    @property
    def view(self) -> RunView:
        return self.state.view

    @property
    def current_run(self) -> RunRecord | None:
        return self.state.current_run

    @property
    def busy(self) -> bool:
        return self.jobs.busy

    @property
    def job_label(self) -> str:
        return self.jobs.label

    @property
    def job_done(self) -> threading.Event:
        """Set once the last job's thread has returned."""
        return self.jobs.done

    # ---- drawing (ChatUI) ------------------------------------------------------------------
    def say(self, role: Role, text: str) -> None:
        """Show a message in the chat and append it to the session transcript."""
        self.flush_stream()
        self.chat.add(role, text)
        self.state.note(role, text)

    def flush_stream(self) -> None:
        """Close the model's streamed message (if any) and keep it in the transcript."""
        streamed = self.chat.end_stream()
        if streamed:
            self.state.note("assistant", streamed)

    def show_transcript(self) -> None:
        """The chat log shows the session's transcript (after switching sessions)."""
        self.chat.clear()
        if self.session is not None:
            for m in self.session.messages():
                self.chat.add(m.role, m.text)

    def show_files(self, files: dict[str, str], caption: str) -> None:
        self.files.show_files(files, caption)

    def refresh_status(self) -> None:
        self.sub_title = model_label(self.model)
        self.status_line.show(self.state.status_line(self.job_label))

    def refresh_panels(self) -> None:
        self.workflow.show(self.view, self.state.max_builds)
        self.files.show_view(self.view)
        self.diff.show_view(self.view)
        self.results.show_report(self.view.report)
        self.refresh_status()

    # ---- the prompt ------------------------------------------------------------------------
    @on(Input.Submitted, "#prompt")
    def _submitted(self, event: Input.Submitted) -> None:
        line = event.value
        event.input.value = ""
        self.completions.show("")
        parsed = cmds.parse(line, self.state.cwd)
        if parsed is None:
            return
        self.say("user", line.strip())
        self.commands.dispatch(parsed)

    @on(PromptInput.Hint)
    def _hint(self, msg: PromptInput.Hint) -> None:
        self.completions.show(msg.hint)

    # ---- jobs ------------------------------------------------------------------------------
    def start_job(self, label: str, kind: RunKind, target: str, work: JobWork) -> None:
        """Run ``work(post, cancel)`` as the job (:meth:`run_job`); its events are rendered as they come."""
        if self.commands.refuse_if_busy():
            return
        job = self.jobs.begin(label, kind, target, work)
        job.worker = self.run_job(job)
        self.refresh_status()

    @work(group="job", exit_on_error=False)
    async def run_job(self, job: Job) -> None:
        """The job's worker: it starts the job's thread and awaits its end (no polling); cancelling the worker
        (Ctrl+C, closing the app) sets the job's cancel flag.

        The thread is a daemon rather than a Textual thread worker: those run in the event loop's executor,
        which the process joins when it exits, so Ctrl+Q would wait for the running step's next cancel check
        (a build, or a hung kernel until its run timeout). A cancelled job is let go of at once instead."""
        loop = asyncio.get_running_loop()
        ended = loop.create_future()

        def thread() -> None:
            try:
                job.run(self.post_message)
            finally:
                if not loop.is_closed():
                    loop.call_soon_threadsafe(lambda: ended.done() or ended.set_result(None))
        threading.Thread(target=thread, name=f"kgen-job-{job.token}", daemon=True).start()
        try:
            await ended
        except asyncio.CancelledError:
            job.flag.set()
            raise

    @on(Job.Ended)
    def _job_ended(self, msg: Job.Ended) -> None:
        if self.jobs.is_current(msg.token):
            self.jobs.release()
            self.refresh_status()

    @on(Job.AgentEvent)
    async def _agent_event(self, msg: Job.AgentEvent) -> None:
        job = self.jobs.current
        if job is None or job.token != msg.token:
            return      # a cancelled job still winding down
        ev = msg.event
        self.state.record(ev, job.kind, job.target)
        if isinstance(ev, Token):
            await self.chat.stream(ev.text)
            return
        self.render_event(ev)
        if isinstance(ev, RunFinished):
            self.finish_run(ev)
            self.jobs.release()
            self.refresh_status()

    def render_event(self, ev: Event) -> None:
        """Show one event: a line in the chat where it says something, and the panels it changes."""
        if isinstance(ev, FilesWritten):
            self.files.show_view(self.view)
            self.diff.show_view(self.view)
        elif isinstance(ev, Report):
            self.results.show_report(ev.report)
            self.tabs.active = TAB_RESULTS
        elif isinstance(ev, RunFinished):
            self.refresh_panels()
        line = event_line(ev)
        if line is not None:
            self.say(*line)
        self.workflow.show(self.view, self.state.max_builds)
        self.refresh_status()

    def finish_run(self, ev: RunFinished) -> None:
        self.flush_stream()
        self.say(*self.state.finish(ev))

    # ---- docs ------------------------------------------------------------------------------
    @work(thread=True, group="docs", exit_on_error=False)
    def search_docs(self, query: str) -> None:
        try:
            text, role = jobs.docs(query), "assistant"
        except Exception as e:  # noqa: BLE001 — e.g. an index that cannot be opened: one line
            text, role = f"cannot search the docs: {e}".splitlines()[0], "error"
        self.call_from_thread(self.say, role, text)

    # ---- actions ---------------------------------------------------------------------------
    def action_cancel_job(self) -> None:
        job = self.jobs.cancel()
        if job is None:
            self.notify("Nothing is running. Ctrl+Q quits.", timeout=3)
            return
        run_id = self.current_run.run_id if self.current_run else ""
        sid = self.session.id if self.session else None
        ev = RunFinished(run_id, "cancelled", f"{job.label} cancelled" +
                         (f"; /resume {sid} or `kgen chat --resume` continues it" if sid else ""))
        self.state.replay(ev)
        self.finish_run(ev)
        self.refresh_panels()

    async def action_quit(self) -> None:
        if self.jobs.cancel() is not None:
            self.state.abandon()
        self.exit()

    def action_clear_chat(self) -> None:
        self.chat.clear()

    def action_show_tab(self, tab: str) -> None:
        self.tabs.active = tab
        if tab == TAB_RESULTS:    # the table takes the keys: o opens the case's picture, arrows pick a case
            self.call_after_refresh(self.results.table.focus)

    def action_focus_prompt(self) -> None:
        self.prompt.focus()
