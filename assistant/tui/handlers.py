"""The chat's slash commands (and paths and words typed at the prompt): what each one does.

:class:`Commands` checks the input, then answers at once in the chat or starts a job (assistant.tui.jobs).
It changes the chat's state (assistant.tui.state) and talks to the screen only through :class:`ChatUI`,
which the app implements; user mistakes are one line in the chat.
"""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from agent_graph.api import model_label
from assistant.tui import commands as cmds
from assistant.tui import jobs
from assistant.tui.project_ops import OpError, find_project, save_project, task_name, undo_last_round
from assistant.tui.runner import JobWork
from assistant.tui.session import Role, RunKind, SessionError, SessionState, list_sessions
from assistant.tui.state import ChatState

TAB_FILES = "tab-files"


class ChatUI(Protocol):
    """What the commands need from the screen (KgenChat)."""

    @property
    def busy(self) -> bool: ...
    @property
    def job_label(self) -> str: ...
    def say(self, role: Role, text: str) -> None: ...
    def start_job(self, label: str, kind: RunKind, target: str, work: JobWork) -> None: ...
    def search_docs(self, query: str) -> object: ...
    def show_files(self, files: dict[str, str], caption: str) -> None: ...
    def action_show_tab(self, tab: str) -> None: ...
    def show_transcript(self) -> None: ...
    def refresh_panels(self) -> None: ...
    def refresh_status(self) -> None: ...


class Commands:
    def __init__(self, ui: ChatUI, state: ChatState) -> None:
        self.ui, self.state = ui, state

    # ---- routing ---------------------------------------------------------------------------
    def dispatch(self, parsed: cmds.Parsed) -> None:
        if isinstance(parsed, cmds.Invalid):
            self.ui.say("error", parsed.message)
        elif isinstance(parsed, cmds.FreeText):
            self.words(parsed.text)
        elif isinstance(parsed, cmds.PathInput):
            if parsed.kind == "task":
                self.cmd_generate(str(parsed.path))
            elif parsed.kind == "program":
                self.cmd_bench(str(parsed.path))
            else:
                self.cmd_open(str(parsed.path))
        else:
            getattr(self, f"cmd_{parsed.name}")(parsed.arg)

    def resolve(self, arg: str) -> Path:
        return cmds.resolve(arg, self.state.cwd)

    def refuse_if_busy(self, hint: str = "wait for it or press Ctrl+C to cancel it") -> bool:
        if self.ui.busy:
            self.ui.say("error", f"{self.ui.job_label} is running: {hint}")
        return self.ui.busy

    # ---- generate / words / fix / bench ----------------------------------------------------
    def words(self, text: str) -> None:
        if not self.state.model.configured:
            self.ui.say("error", "describing a kernel in words needs a model: `/model URL` (an OpenAI-compatible "
                                 "endpoint such as vLLM), or give a task path for the offline drafter")
            return
        model, agent = self.state.model, self.state.agent
        run_id = self.state.begin_run("words", text, "words")
        self.ui.start_job("generate (words)", "words", text,
                          lambda post, cancel: jobs.generate(text, True, model, agent, None, post, cancel, run_id))

    def cmd_generate(self, arg: str) -> None:
        target = arg or (self.state.session.state.task if self.state.session else "")
        if not target:
            self.ui.say("error", "no task yet: /generate TASK (a kgen-task.toml, a task folder or a reference .py)")
            return
        p = self.resolve(target)
        if not p.exists():
            if " " in target:
                self.words(target)
                return
            self.ui.say("error", f"no such file or directory: {target}")
            return
        self.state.set_task(p)
        self.generate_task(p)

    def generate_task(self, p: Path, run_id: str | None = None) -> None:
        if self.refuse_if_busy():
            return
        name = task_name(str(p))
        out = self.state.output_root / name if self.state.output_root else None
        model, agent = self.state.model, self.state.agent
        run_id = self.state.begin_run("generate", str(p), name, run_id)
        self.ui.start_job(f"generate {name}", "generate", str(p),
                          lambda post, cancel: jobs.generate(str(p), False, model, agent, out, post, cancel, run_id))

    def cmd_fix(self, arg: str) -> None:
        project = find_project(self.resolve(arg)) if arg else self.state.current_project()
        if project is None:
            self.ui.say("error", f"{arg or 'no current project'}: not in an op project (op_host/ + op_kernel/); "
                                 "/fix PATH or /generate first")
            return
        model, agent = self.state.model, self.state.agent
        self.ui.start_job(f"fix {project.name}", "fix", str(project),
                          lambda post, cancel: jobs.fix(project, None, model, agent, post, cancel))

    def cmd_bench(self, arg: str) -> None:
        # lazy: bench_bridge.api (numpy, the emulator, the perf model) is ~0.5 s of kgen chat's start-up
        from bench_bridge.api import TASK_FILE

        project: Path | None = None
        if arg:
            path = self.resolve(arg)
            if not path.exists():
                self.ui.say("error", f"no such file or directory: {arg}")
                return
            if path.is_dir() and (path / "op_host").is_dir():
                project, path = path, path / TASK_FILE
        else:
            project = self.state.current_project()
            if project is None:
                self.ui.say("error", "nothing to bench yet: /bench FILE (a task, op project or kernel-launch program)")
                return
            path = project / TASK_FILE
        if project is not None and not path.exists():
            self.ui.say("error", f"{project}: no {TASK_FILE} beside the project to check it against")
            return
        backend, timeout = self.state.agent.backend, self.state.agent.run_timeout
        self.ui.start_job(f"bench {path.name if path.name != TASK_FILE else path.parent.name}", "bench",
                          str(path), lambda post, cancel: jobs.bench(path, project, backend, post, cancel, timeout))

    def resume_run(self, run_id: str) -> None:
        model, agent = self.state.model, self.state.agent
        kind: RunKind = self.state.current_run.kind if self.state.current_run else "generate"
        self.ui.start_job(f"resume {run_id}", kind, run_id,
                          lambda post, cancel: jobs.resume(run_id, model, agent, post, cancel))

    # ---- immediate commands ----------------------------------------------------------------
    def cmd_docs(self, arg: str) -> None:
        self.ui.search_docs(arg)

    def cmd_model(self, arg: str) -> None:
        if arg:
            if arg.lower() == "off":
                self.state.set_model_url(None)
            elif not arg.startswith(("http://", "https://")):
                self.ui.say("error", f"/model takes an endpoint URL such as http://127.0.0.1:8000/v1, or 'off' (got '{arg}')")
                return
            else:
                self.state.set_model_url(arg.rstrip("/"))
        model = self.state.model
        self.ui.say("system", f"model: **{model_label(model)}**" +
                    ("" if model.configured else " (templates, no model; `/model URL` uses an endpoint)"))
        self.ui.refresh_status()

    def cmd_backend(self, arg: str) -> None:
        self.state.set_backend(arg)
        note = "" if arg == "sim" else " (builds and runs need CANN and an Ascend NPU on this machine)"
        self.ui.say("system", f"backend: **{arg}**{note}")
        self.ui.refresh_status()

    def cmd_open(self, arg: str) -> None:
        p = self.resolve(arg)
        if not p.exists():
            self.ui.say("error", f"no such file or directory: {arg}")
            return
        if p.is_dir():
            project = find_project(p)
            files = jobs.read_sources(project) if project else {}
            if project is None or not files:
                self.ui.say("error", f"{arg}: no op project sources (op_host/, op_kernel/) to show")
                return
            self.ui.show_files(files, project.name)
        else:
            try:
                text = p.read_text()
            except (OSError, UnicodeDecodeError) as e:
                self.ui.say("error", f"cannot show {arg}: {e}")
                return
            self.ui.show_files({p.name: text}, str(p.parent.name))
        self.ui.action_show_tab(TAB_FILES)
        self.ui.say("system", f"opened `{arg}` in the files panel")

    def cmd_save(self, arg: str) -> None:
        project = self.state.current_project()
        if project is None:
            self.ui.say("error", "nothing to save: no project yet (/generate first)")
            return
        try:
            dest = save_project(project, self.resolve(arg), self.state.view.report)
        except (OpError, OSError) as e:
            self.ui.say("error", str(e))
            return
        self.ui.say("system", f"saved the project to `{dest}`")

    def cmd_undo(self, arg: str) -> None:
        if self.refuse_if_busy("Ctrl+C first"):
            return
        view = self.state.view
        try:
            project, changed = undo_last_round(view)
        except OpError as e:
            self.ui.say("error", str(e))
            return
        back = view.rounds[-1]
        self.ui.refresh_panels()
        self.ui.say("system", f"restored round {back.round} ({back.reason}) in `{project}`: {', '.join(changed)}; "
                              "/bench checks it")

    def cmd_sessions(self, arg: str) -> None:
        infos = list_sessions(self.state.agent.data_dir)
        if not infos:
            self.ui.say("system", "no saved session")
            return
        this = self.state.session.id if self.state.session else None
        rows = "\n".join(f"| `{i.id}`{' (this one)' if i.id == this else ''} | "
                         f"{i.title.replace('|', '/')} | {i.runs} | {i.last_status} |" for i in infos[:20])
        self.ui.say("system", "| session | first message | runs | last run |\n|---|---|---|---|\n" + rows +
                    "\n\n`/resume ID` reopens one.")

    def cmd_resume(self, arg: str) -> None:
        if self.refuse_if_busy("Ctrl+C first"):
            return
        self.open_session(arg, announce=True)

    def cmd_help(self, arg: str) -> None:
        self.ui.say("system", cmds.help_markdown())

    # ---- sessions --------------------------------------------------------------------------
    def open_session(self, sid: str | None, announce: bool) -> None:
        """Switch to a saved session, show its transcript and last run, and continue that run if it was cut off."""
        try:
            session = self.state.open_session(sid)
        except SessionError as e:
            if self.state.session is None:
                self.state.new_session(SessionState())
            self.ui.say("error", str(e))
            return
        self.ui.show_transcript()
        self.ui.refresh_panels()
        if announce:
            self.ui.say("system", f"resumed session `{session.id}` ({len(session.runs())} run(s))")
        last = self.state.unfinished_run()
        if last is not None:
            self.ui.say("system", f"continuing the unfinished run `{last.run_id}`")
            if self.state.run_folder_exists(last.run_id) or last.kind != "generate":
                self.resume_run(last.run_id)
            else:       # stopped before the agent wrote anything: start it again under the same id
                self.generate_task(Path(last.target), last.run_id)
