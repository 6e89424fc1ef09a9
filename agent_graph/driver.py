"""Running the graph for agent_graph.api: run folders, the SQLite checkpointer, cancel, outcomes.

Imported only when a run starts (agent_graph.api imports it lazily): it pulls langgraph and every node.

A run's state is checkpointed after every node (LangGraph SqliteSaver at data_dir/checkpoints.sqlite,
thread_id = run id). Whatever stops a run early — a cancel, a model error, a killed process — leaves the
last completed node's checkpoint, and ``resume_run`` continues from the node after it."""
from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import traceback
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from agent_graph.events import Event, EventSink, RunFinished, RunStarted
from agent_graph.graph import build_graph
from agent_graph.llm import ModelError
from agent_graph.output_dir import output_problem
from agent_graph.nodes.context import Cancelled, Ctx, RunError
from agent_graph.runs import (RunFolder, RunFolderError, check_checkpoints, damaged_checkpoints, model_label,
                              new_run_id)
from agent_graph.settings import AgentSettings, ModelSettings
from agent_graph.types import OUTCOME_STATUSES, OutcomeStatus, Request, RunOutcome
from bench_bridge.api import TASK_FILE, TaskError, load_task

RECURSION_LIMIT = 400


@contextmanager
def checkpointer(data_dir: Path):
    data_dir.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(data_dir / "checkpoints.sqlite"), check_same_thread=False, timeout=60)
    try:
        yield SqliteSaver(conn)
    finally:
        conn.close()


def _task_name(task: str) -> str:
    try:
        return load_task(Path(task)).name
    except (TaskError, OSError):
        p = Path(task)
        return p.parent.name if p.name == TASK_FILE else p.stem


def _settings_record(model: ModelSettings, agent: AgentSettings) -> dict:
    m = asdict(model)
    m.pop("api_key", None)
    return {"model": m, "agent": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(agent).items()}}


def _words_name(words: str) -> str:
    """A file-name-safe name for a request in words: its first four words (``softmax-over-the-last``)."""
    parts = [re.sub(r"[^A-Za-z0-9_]+", "", w) for w in words.split()]
    return "-".join([w for w in parts if w][:4]) or "request"


def start_run(request: Request, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
              cancel: threading.Event | None, run_id: str | None, confirm=None) -> RunOutcome:
    label = request.task or request.words or ""
    name = _task_name(request.task) if request.task else _words_name(request.words or "")
    run_id = run_id or new_run_id(name)
    task = str(Path(request.task).resolve()) if request.task else ""
    output = Path(request.output) if request.output else Path("kgen-out") / name
    problem = None if request.replace else output_problem(output)
    if problem is not None:   # checked before anything is written: a user's project is never overwritten unasked
        on_event(RunFinished(run_id, "invalid", problem))   # RunFinished exactly once, as for every run
        return RunOutcome(run_id, "invalid", problem, None, None)
    state = {"run_id": run_id, "mode": "model" if model.configured else "offline", "task": task,
             "words": request.words or "",
             "output": str(output.resolve()), "replace_output": request.replace, "status": "running", "candidates": [], "docs": []}
    return _begin(run_id, label, state, {"task": task, "words": request.words, "output": state["output"]},
                  model, agent, on_event, cancel, confirm)


def start_repair(project: Path, task: str | None, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
                 cancel: threading.Event | None) -> RunOutcome:
    project = project.resolve()
    spec = Path(task) if task else project / TASK_FILE
    run_id = new_run_id(f"fix-{project.name}")
    state = {"run_id": run_id, "mode": "fix", "task": str(spec.resolve()) if spec.exists() else "",
             "fix_project": str(project), "output": str(project), "status": "running", "candidates": [], "docs": []}
    if not spec.exists():
        state["task"] = ""
    return _begin(run_id, f"fix {project}", state, {"task": state["task"], "fix_project": str(project),
                                                     "output": str(project)}, model, agent, on_event, cancel)


def _begin(run_id, label, state, request_record, model, agent, on_event, cancel, confirm=None) -> RunOutcome:
    folder = RunFolder(agent.data_dir, run_id)
    state["run_dir"] = str(folder.dir)
    folder.create({**request_record, "label": label, **_settings_record(model, agent)}, label, model_label(model))
    return _drive(folder, label, state, model, agent, on_event, cancel, resumed=False, confirm=confirm)


def resume_run(run_id: str, model: ModelSettings, agent: AgentSettings, on_event: EventSink,
               cancel: threading.Event | None) -> RunOutcome:
    folder = RunFolder(agent.data_dir, run_id)
    if not folder.exists:
        return RunOutcome(run_id, "error", f"no run {run_id} under {folder.dir.parent}", None, None)
    try:
        req = folder.request()
        check_checkpoints(agent.data_dir)
    except RunFolderError as e:
        return RunOutcome(run_id, "error", str(e), None, None)
    return _drive(folder, req.get("label", req.get("task", "")), None, model, agent, on_event, cancel, resumed=True)


def _drive(folder: RunFolder, label: str, initial: dict | None, model: ModelSettings, agent: AgentSettings,
           on_event: EventSink, cancel: threading.Event | None, resumed: bool, confirm=None) -> RunOutcome:
    def emit(ev: Event) -> None:
        folder.record(ev)
        try:
            on_event(ev)
        except Exception:  # noqa: BLE001 — a front end's rendering bug must not stop the run
            pass

    ctx = Ctx(model=model, agent=agent, folder=folder, emit=emit, cancel=cancel or threading.Event(), confirm=confirm)
    (folder.dir / "pid").write_text(str(os.getpid()))
    emit(RunStarted(folder.run_id, str(folder.dir), model_label(model), label, resumed))
    status: OutcomeStatus = "error"
    message, values = "", {}
    config = {"configurable": {"thread_id": folder.run_id}, "recursion_limit": RECURSION_LIMIT}
    with checkpointer(agent.data_dir) as saver:
        graph = build_graph(ctx, saver)
        try:
            # a process killed after a node's writes were saved but before the step's checkpoint leaves a
            # state with no next node and that node's task holding its result: streaming from it applies the
            # saved writes (the node is not run again) and goes on, like any other resume
            state = graph.get_state(config) if resumed else None
            if state is not None and not state.next and not state.tasks:
                snap = state.values
                if not snap:
                    raise RunError(f"run {folder.run_id} has no checkpoint to resume from")
                if snap.get("status", "running") == "running":
                    raise RunError(f"run {folder.run_id}: its last checkpoint is incomplete; start the task again")
            else:
                for _ in graph.stream(initial, config, stream_mode="updates", durability="sync"):
                    ctx.check_cancel()
            values = graph.get_state(config).values
            status, message = values.get("status", "failed"), values.get("message", "")
        except Cancelled:
            status, message = "cancelled", f"cancelled: continue with kgen generate --resume {folder.run_id}"
        except RunError as e:
            status, message = "error", str(e)
        except ModelError as e:
            status, message = "error", f"model error: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
        except sqlite3.DatabaseError as e:
            status, message = "error", damaged_checkpoints(agent.data_dir / "checkpoints.sqlite", e)
        except Exception as e:  # noqa: BLE001 — one line for the user, the traceback in the run folder
            (folder.dir / "error.txt").write_text(traceback.format_exc())
            status, message = "error", f"internal error: {type(e).__name__}: {e}".splitlines()[0]
        if status not in OUTCOME_STATUSES:
            status = "failed"
        if not values:
            try:
                values = graph.get_state(config).values or {}
            except Exception:  # noqa: BLE001
                values = {}
    return _finish(folder, emit, status, message, values)


def _finish(folder: RunFolder, emit, status: OutcomeStatus, message: str, values: dict) -> RunOutcome:
    project = Path(values["project"]) if values.get("project") and status in ("verified", "failed") else None
    report = None
    rp = folder.dir / "final" / "report.json"
    if project is not None and rp.exists():
        report = json.loads(rp.read_text())
    if status in ("cancelled", "error") and values.get("best", {}) and values["best"].get("project"):
        project_str = values["best"]["project"]
    else:
        project_str = str(project) if project else ""
    emit(RunFinished(folder.run_id, status, message, project_str))
    try:
        (folder.dir / "pid").unlink()
    except OSError:
        pass
    return RunOutcome(folder.run_id, status, message, project, report)
