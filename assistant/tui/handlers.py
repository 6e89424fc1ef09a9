"""The chat's slash commands and how events show in the chat (a mixin of the app, assistant.tui.app).

Each handler checks its input, then either answers at once in the chat or starts a job
(assistant.tui.jobs) whose events the app renders. User mistakes are one line in the chat.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.widgets import TabbedContent

from agent_graph.events import Diagnostics, Event, FilesWritten, Note, Report, RunFinished, RunStarted
from assistant.tui import commands as cmds
from assistant.tui import jobs
from assistant.tui.project_ops import OpError, find_project, save_project, task_name, undo_last_round
from assistant.tui.runview import RunView
from assistant.tui.session import RunRecord, Session, SessionError, list_sessions

if TYPE_CHECKING:
    from assistant.tui.app import KgenChat

RESUMABLE_KINDS = ("generate", "fix", "words")


class CommandHandlers:
    """Mixed into KgenChat; ``self`` is the app."""

    # ---- routing ---------------------------------------------------------------------------
    def dispatch(self: "KgenChat", parsed: cmds.Parsed) -> None:
        if isinstance(parsed, cmds.Invalid):
            self.say("error", parsed.message)
        elif isinstance(parsed, cmds.FreeText):
            self.handle_words(parsed.text)
        elif isinstance(parsed, cmds.PathInput):
            if parsed.kind == "task":
                self.cmd_generate(str(parsed.path))
            elif parsed.kind == "program":
                self.cmd_bench(str(parsed.path))
            else:
                self.cmd_open(str(parsed.path))
        else:
            getattr(self, f"cmd_{parsed.name}")(parsed.arg)

    def resolve(self: "KgenChat", arg: str) -> Path:
        return cmds.resolve(arg, self.config.cwd)

    # ---- generate / words / fix / bench ----------------------------------------------------
    def handle_words(self: "KgenChat", text: str) -> None:
        if not self.model.configured:
            self.say("error", "describing a kernel in words needs a model: `/model URL` (an OpenAI-compatible "
                              "endpoint such as vLLM), or give a task path for the offline drafter")
            return
        run_id = self.begin_run("words", text, "words")
        self.start_job("generate (words)", "words", text,
                       lambda post, cancel: jobs.generate(text, True, self.model, self.agent, None, post, cancel, run_id))

    def begin_run(self: "KgenChat", kind: str, target: str, label: str, run_id: str | None = None) -> str:
        """Name the agent run before it starts and record it, so a crash before its first event is resumable."""
        from agent_graph.runs import new_run_id

        run_id = run_id or new_run_id(label)
        self.current_run = RunRecord(run_id, kind, target)
        if self.session is not None:
            self.session.record_run(self.current_run)
        return run_id

    def cmd_generate(self: "KgenChat", arg: str) -> None:
        target = arg or (self.session.state.task if self.session else "")
        if not target:
            self.say("error", "no task yet: /generate TASK (a kgen-task.toml, a task folder or a reference .py)")
            return
        p = self.resolve(target)
        if not p.exists():
            if " " in target:
                self.handle_words(target)
                return
            self.say("error", f"no such file or directory: {target}")
            return
        if self.session is not None:
            self.session.state.task = str(p)
            self.session.save_state()
        self.generate_task(p)

    def generate_task(self: "KgenChat", p: Path, run_id: str | None = None) -> None:
        if self.busy:
            self.say("error", f"{self.job_label} is running: wait for it or press Ctrl+C to cancel it")
            return
        out = self.config.output_root / task_name(str(p)) if self.config.output_root else None
        run_id = self.begin_run("generate", str(p), task_name(str(p)), run_id)
        self.start_job(f"generate {task_name(str(p))}", "generate", str(p),
                       lambda post, cancel: jobs.generate(str(p), False, self.model, self.agent, out, post, cancel,
                                                          run_id))

    def current_project(self: "KgenChat") -> Path | None:
        proj = self.view.target_project or (self.session.state.project if self.session else "")
        return Path(proj) if proj and Path(proj).is_dir() else None

    def cmd_fix(self: "KgenChat", arg: str) -> None:
        project = find_project(self.resolve(arg)) if arg else self.current_project()
        if project is None:
            self.say("error", f"{arg or 'no current project'}: not in an op project (op_host/ + op_kernel/); "
                              "/fix PATH or /generate first")
            return
        self.start_job(f"fix {project.name}", "fix", str(project),
                       lambda post, cancel: jobs.fix(project, None, self.model, self.agent, post, cancel))

    def cmd_bench(self: "KgenChat", arg: str) -> None:
        project: Path | None = None
        if arg:
            path = self.resolve(arg)
            if not path.exists():
                self.say("error", f"no such file or directory: {arg}")
                return
            if path.is_dir() and (path / "op_host").is_dir():
                project, path = path, path / "kgen-task.toml"
        else:
            project = self.current_project()
            if project is None:
                self.say("error", "nothing to bench yet: /bench FILE (a task, op project or kernel-launch program)")
                return
            path = project / "kgen-task.toml"
        if project is not None and not path.exists():
            self.say("error", f"{project}: no kgen-task.toml beside the project to check it against")
            return
        backend = self.agent.backend
        self.start_job(f"bench {path.name if path.name != 'kgen-task.toml' else path.parent.name}", "bench", str(path),
                       lambda post, cancel: jobs.bench(path, project, backend, post, cancel, self.agent.run_timeout))

    def cmd_resume_run(self: "KgenChat", run_id: str) -> None:
        self.start_job(f"resume {run_id}", self.current_run.kind if self.current_run else "generate", run_id,
                       lambda post, cancel: jobs.resume(run_id, self.model, self.agent, post, cancel))

    # ---- immediate commands ----------------------------------------------------------------
    def cmd_docs(self: "KgenChat", arg: str) -> None:
        def work() -> None:
            try:
                text = jobs.docs(arg)
                role = "assistant"
            except Exception as e:  # noqa: BLE001 — e.g. an index that cannot be opened: one line
                text, role = f"cannot search the docs: {e}".splitlines()[0], "error"
            self.call_from_thread(self.say, role, text)
        self.run_worker(work, thread=True, group="docs", exit_on_error=False)

    def cmd_model(self: "KgenChat", arg: str) -> None:
        if arg:
            if arg.lower() == "off":
                self.model.url = None
            elif not arg.startswith(("http://", "https://")):
                self.say("error", f"/model takes an endpoint URL such as http://127.0.0.1:8000/v1, or 'off' (got '{arg}')")
                return
            else:
                self.model.url = arg.rstrip("/")
            if self.session is not None:
                self.session.state.model_url = self.model.url
                self.session.save_state()
        self.say("system", f"model: **{jobs.model_label(self.model)}**" +
                 ("" if self.model.configured else " (templates, no model; `/model URL` uses an endpoint)"))
        self.refresh_status()

    def cmd_backend(self: "KgenChat", arg: str) -> None:
        self.agent.backend = arg
        if self.session is not None:
            self.session.state.backend = arg
            self.session.save_state()
        note = "" if arg == "sim" else " (builds and runs need CANN and an Ascend NPU on this machine)"
        self.say("system", f"backend: **{arg}**{note}")
        self.refresh_status()

    def cmd_open(self: "KgenChat", arg: str) -> None:
        p = self.resolve(arg)
        if not p.exists():
            self.say("error", f"no such file or directory: {arg}")
            return
        if p.is_dir():
            project = find_project(p)
            files = jobs.read_sources(project) if project else {}
            if not files:
                self.say("error", f"{arg}: no op project sources (op_host/, op_kernel/) to show")
                return
            self.query_one("#files").show_files(files, project.name)
        else:
            try:
                text = p.read_text()
            except (OSError, UnicodeDecodeError) as e:
                self.say("error", f"cannot show {arg}: {e}")
                return
            self.query_one("#files").show_files({p.name: text}, str(p.parent.name))
        self.action_show_tab("tab-files")
        self.say("system", f"opened `{arg}` in the files panel")

    def cmd_save(self: "KgenChat", arg: str) -> None:
        project = self.current_project()
        if project is None:
            self.say("error", "nothing to save: no project yet (/generate first)")
            return
        try:
            dest = save_project(project, self.resolve(arg), self.view.report)
        except (OpError, OSError) as e:
            self.say("error", str(e))
            return
        self.say("system", f"saved the project to `{dest}`")

    def cmd_undo(self: "KgenChat", arg: str) -> None:
        if self.busy:
            self.say("error", f"{self.job_label} is running: Ctrl+C first")
            return
        try:
            project, changed = undo_last_round(self.view)
        except OpError as e:
            self.say("error", str(e))
            return
        back = self.view.rounds[-1]
        self.refresh_panels()
        self.say("system", f"restored round {back.round} ({back.reason}) in `{project}`: {', '.join(changed)}; "
                           "/bench checks it")

    def cmd_sessions(self: "KgenChat", arg: str) -> None:
        infos = list_sessions(self.agent.data_dir)
        if not infos:
            self.say("system", "no saved session")
            return
        rows = "\n".join(f"| `{i.id}`{' (this one)' if self.session and i.id == self.session.id else ''} | "
                         f"{i.title.replace('|', '/')} | {i.runs} | {i.last_status} |" for i in infos[:20])
        self.say("system", "| session | first message | runs | last run |\n|---|---|---|---|\n" + rows +
                 "\n\n`/resume ID` reopens one.")

    def cmd_resume(self: "KgenChat", arg: str) -> None:
        if self.busy:
            self.say("error", f"{self.job_label} is running: Ctrl+C first")
            return
        self.open_session(arg, announce=True)

    def cmd_help(self: "KgenChat", arg: str) -> None:
        self.say("system", cmds.help_markdown())

    # ---- sessions --------------------------------------------------------------------------
    def open_session(self: "KgenChat", sid: str | None, announce: bool) -> None:
        try:
            session = Session.open(self.agent.data_dir, sid)
        except SessionError as e:
            if self.session is None:
                self.session = Session.create(self.agent.data_dir)
            self.say("error", str(e))
            return
        self.session = session
        self.model.url = session.state.model_url or self.model.url
        self.agent.backend = session.state.backend or self.agent.backend
        self.chat.clear()
        for m in session.messages():
            self.chat.add(m.role, m.text)
        runs = session.runs()
        self.view, self.current_run = RunView(), (runs[-1] if runs else None)
        if self.current_run is not None:
            for ev in session.events(self.current_run.run_id):
                self.view.apply(ev)
        self.refresh_panels()
        if announce:
            self.say("system", f"resumed session `{session.id}` ({len(runs)} run(s))")
        last = self.current_run
        if last is not None and last.kind in RESUMABLE_KINDS and last.resumable:
            from agent_graph.runs import RunFolder

            self.say("system", f"continuing the unfinished run `{last.run_id}`")
            if RunFolder(self.agent.data_dir, last.run_id).exists or last.kind != "generate":
                self.cmd_resume_run(last.run_id)
            else:       # stopped before the agent wrote anything: start it again under the same id
                self.generate_task(Path(last.target), last.run_id)

    # ---- events in the chat ----------------------------------------------------------------
    def render_event(self: "KgenChat", ev: Event) -> None:
        if isinstance(ev, RunStarted):
            what = "resumed" if ev.resumed else "started"
            by = f" with **{ev.model}**" if ev.model else ""
            self.say("system", f"{what} run `{ev.run_id}`{by}")
        elif isinstance(ev, Note) and ev.level in ("warning", "error"):
            self.say("error" if ev.level == "error" else "system", ev.text)
        elif isinstance(ev, FilesWritten):
            self.query_one("#files").show_view(self.view)
            self.query_one("#diff").show_view(self.view)
            if ev.round > 0:
                self.say("system", f"round {ev.round} ({ev.reason}): changed {', '.join(sorted(ev.files))} "
                                   "(F3 shows the diff, /undo reverts it)")
        elif isinstance(ev, Diagnostics):
            errors = [d for d in ev.items if d.get("severity") == "error"]
            if errors:
                d = errors[0]
                self.say("system", f"round {ev.round}: {len(errors)} error(s); first: "
                                   f"`{Path(str(d.get('file', ''))).name}:{d.get('line', 0)}: {d.get('message', '')}`")
        elif isinstance(ev, Report):
            self.query_one("#results").show_report(ev.report)
            self.query_one("#tabs", TabbedContent).active = "tab-results"
        elif isinstance(ev, RunFinished):
            self.refresh_panels()
        self.query_one("#workflow").show(self.view, self.max_builds)
        self.refresh_status()
