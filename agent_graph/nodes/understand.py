"""understand: the request -> a TaskSpec reference (name, format, op type, shape cases).

A task path is read with bench_bridge.tasks.load_task (NPUKernelBench dir, KernelBench .py, kgen spec).
A request in words alone needs a model: it writes the reference and the cases as a kgen spec in the
run folder (nodes/spec_writer.py); without a model the run ends with a clear message. When the front end
passed ``confirm`` (agent_graph.api.run) it is asked about the written spec, and a refusal ends the run
as "cancelled" with the spec's path, so the user can edit the spec and run it as a task."""
from __future__ import annotations

from pathlib import Path

from agent_graph.drafter.planner import op_type_for
from agent_graph.nodes.context import Ctx
from agent_graph.nodes.spec_writer import write_task
from agent_graph.state import GraphState, TaskSpecRef
from bench_bridge.api import TaskError, describe_project, snake_case


def understand(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    path = state.get("task") or ""
    update: dict = {}
    if not path and state.get("mode") == "fix":
        return {"status": "error", "message": f"{state.get('fix_project')}: no task to verify it against: pass the task "
                                              "(or put a kgen-task.toml in the project)"}, "no task"
    if not path:
        if ctx.offline or not state.get("words"):
            msg = "a request in words needs a model to write the PyTorch reference and the shape cases (--llm URL)"
            return {"status": "error", "message": msg}, "no task"

        path = write_task(ctx, state["words"])
        update["task"] = path
        if ctx.confirm is not None and not ctx.confirm(Path(path)):
            msg = f"the reference was not accepted: edit {path} and run kgen generate {path}"
            return {**update, "status": "cancelled", "message": msg}, "reference not accepted"
    try:
        task = ctx.task(path)
    except TaskError as e:
        return {"status": "error", "message": str(e)}, "cannot read the task"
    op_type = op_type_for(task.name)
    if state.get("mode") == "fix":
        op = describe_project(Path(state["fix_project"]))
        if op.op_type:
            op_type = op.op_type
    spec = TaskSpecRef(path=path, name=task.name, format=task.format, op_type=op_type, op_name=snake_case(op_type),
                       cases=len(task.cases), case_ids=[c.id for c in task.cases],
                       description=(task.description or "").strip())
    return {**update, "spec": spec}, f"{task.name} ({task.format}, {len(task.cases)} case(s))"
