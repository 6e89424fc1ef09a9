"""The agent's public API: every front end (``kgen generate``, the TUI, the LSP) calls these functions.

    run(Request(task="examples/tasks/add/kgen-task.toml"), ModelSettings(), AgentSettings(), on_event=print)
    run(Request(words="softmax over the last dim, fp16 [B, 4096]"), model, agent, confirm=ask_user)
    resume(run_id, model, agent)            # continue an interrupted run from its last completed node
    list_runs(agent)                        # the runs under AgentSettings.data_dir/runs/
    repair_project(project, task, model, agent)   # build + verify an existing op project, repair on findings

Events (agent_graph.events) are delivered to ``on_event`` and appended to the run folder's
``events.jsonl``; ``RunFinished`` comes exactly once. ``cancel`` is honoured between nodes, while the
model streams and between shape cases; a cancelled or failed run stays resumable.

A request in words: the model writes the PyTorch reference and the shape cases as a kgen spec in the run
folder; ``confirm(spec_path)``, when given, is called once that spec is on disk, and False ends the run
as "cancelled" with a message naming the spec (edit it, then run it as a task). Without ``confirm`` the
run goes on with the model's spec.

Types (agent_graph.types, re-exported here): Request, RunOutcome, RunInfo, the run-status vocabulary
(RunStatus / OutcomeStatus Literals; RUN_STATUSES, OUTCOME_STATUSES, STOP_STATUSES, CLOSED_STATUSES) and the
graph's node names (NodeName, NODE_NAMES). Run folders: RunFolder, RunFolderError, new_run_id, model_label
(what a run says about its model). The driver (langgraph, the nodes, the drafter) is imported when a run starts.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from agent_graph.events import EventSink
from agent_graph.output_dir import output_problem
from agent_graph.runs import RunFolder, RunFolderError, check_checkpoints, list_run_infos, model_label, new_run_id
from agent_graph.settings import AgentSettings, ModelSettings
from agent_graph.types import (CLOSED_STATUSES, NODE_NAMES, OUTCOME_STATUSES, RUN_STATUSES, STOP_STATUSES, NodeName,
                               OutcomeStatus, Request, RunInfo, RunOutcome, RunStatus)

__all__ = [
    "CLOSED_STATUSES", "NODE_NAMES", "OUTCOME_STATUSES", "RUN_STATUSES", "STOP_STATUSES", "NodeName", "OutcomeStatus",
    "Request", "RunFolder", "RunFolderError", "RunInfo", "RunOutcome", "RunStatus", "list_runs", "model_label",
    "new_run_id", "output_problem", "repair_project", "resume", "resume_problem", "run",
]
__all__ += ["EvalError", "EvalProgressPrinter", "EvalRequest", "Limits", "ServeError", "request_from_run", "run_eval",
            "serve", "serve_command"]


def _ignore(_e) -> None:
    return None


def run(request: Request, model: ModelSettings, agent: AgentSettings, on_event: EventSink = _ignore,
        cancel: threading.Event | None = None, run_id: str | None = None,
        confirm: Callable[[Path], bool] | None = None) -> RunOutcome:
    """Run the graph for ``request`` to its end (or until cancelled / a model error). ``confirm`` is
    asked about the spec the model wrote for a request in words (None: go on without asking)."""
    # lazy: the driver pulls langgraph, every node and the drafter (torch): ~2.5 s of start-up
    from agent_graph.driver import start_run

    return start_run(request, model, agent, on_event, cancel, run_id, confirm)


def resume(run_id: str, model: ModelSettings, agent: AgentSettings, on_event: EventSink = _ignore,
           cancel: threading.Event | None = None) -> RunOutcome:
    """Continue run ``run_id`` from its last completed node (LangGraph SQLite checkpoint)."""
    # lazy: the driver pulls langgraph, every node and the drafter (torch): ~2.5 s of start-up
    from agent_graph.driver import resume_run

    return resume_run(run_id, model, agent, on_event, cancel)


def resume_problem(run_id: str, agent: AgentSettings) -> str | None:
    """Why run ``run_id`` cannot be resumed (no such run, a damaged request.json, a damaged checkpoint
    database), in one line; None when it can. Nothing is changed on disk."""
    folder = RunFolder(agent.data_dir, run_id)
    if not folder.exists:
        return f"no run {run_id} (kgen runs lists the runs)"
    try:
        folder.request()
        check_checkpoints(agent.data_dir)
    except RunFolderError as e:
        return str(e)
    return None


def list_runs(agent: AgentSettings) -> list[RunInfo]:
    """Runs recorded under ``agent.data_dir/runs``, newest first."""
    return list_run_infos(agent.data_dir)


def repair_project(project: Path, task: str | None, model: ModelSettings, agent: AgentSettings,
                   on_event: EventSink = _ignore, cancel: threading.Event | None = None) -> RunOutcome:
    """Build and verify an existing op project against ``task`` (default: the project's own
    ``kgen-task.toml``), repairing it on diagnostics and wrong results; the fixed files are written
    back to ``project`` only when they are better than what was there."""
    # lazy: the driver pulls langgraph, every node and the drafter (torch): ~2.5 s of start-up
    from agent_graph.driver import start_repair

    return start_repair(Path(project), task, model, agent, on_event, cancel)


_EVAL_NAMES = ("EvalError", "EvalProgressPrinter", "EvalRequest", "Limits", "request_from_run", "run_eval")
_SERVE_NAMES = ("ServeError", "serve", "serve_command")


def __getattr__(name: str):
    """``kgen eval``'s engine (agent_graph.evaluate) and ``kgen serve``'s launcher (agent_graph.llm.serve), imported
    when first named, so that this face stays cheap for its other users."""
    if name in _EVAL_NAMES:
        # lazy: the evaluation engine imports the bench bridge (~0.5 s); only kgen eval pays it
        from agent_graph import evaluate
        from agent_graph.evaluate.progress import ProgressPrinter   # lazy: as above

        return ProgressPrinter if name == "EvalProgressPrinter" else getattr(evaluate, name)
    if name in _SERVE_NAMES:
        from agent_graph.llm import serve   # lazy: the vLLM launcher (httpx, ~0.1 s) only for kgen serve

        return serve.build_command if name == "serve_command" else getattr(serve, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

