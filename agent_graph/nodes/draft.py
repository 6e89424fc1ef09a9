"""draft: the first version of every candidate.

Offline (no model): the offline drafter's project (agent_graph.drafter). With a model: K samples
(AgentSettings.samples) drafted in parallel threads from the prompts (agent_graph.prompts); a reply
that cannot be parsed becomes a parse-repair round. Fix mode: the existing project's sources."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from agent_graph.drafter import Unsupported, draft, write_project
from agent_graph.events import FilesWritten, Note
from agent_graph.nodes.context import Ctx
from agent_graph.nodes.model_io import ask, parse
from agent_graph.nodes.project_files import op_sources, write_candidate
from agent_graph.prompts import draft_messages, dsl_draft_messages
from agent_graph.state import Candidate, GraphState, new_candidate


def _files_dir(ctx: Ctx, c: Candidate) -> Path:
    return ctx.folder.round_dir(c["round"], c["id"]) / "files"


def place(ctx: Ctx, state: GraphState, c: Candidate, files: dict[str, str], reason: str) -> Candidate:
    """Write ``files`` as the candidate's project for its current round; emit FilesWritten."""
    spec = state["spec"]
    dest = _files_dir(ctx, c)
    write_candidate(files, dest, spec["op_type"], spec["op_name"], ctx.task(spec["path"]), spec["path"])
    c["files"], c["project"], c["phase"] = dict(files), str(dest), "build"
    c["compiled"], c["diagnostics"], c["cases"], c["failures"], c["passed"] = False, [], [], [], 0
    c["modelled_us"], c["report_path"] = None, ""
    ctx.emit(FilesWritten(c["round"], reason, dict(files), str(dest)))
    return c


def _offline(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    spec = state["spec"]
    d = ctx.cache.get("draft") or draft(ctx.task(spec["path"]))
    if isinstance(d, Unsupported):
        status = "invalid" if d.user_error else "unsupported"
        return {"status": status, "message": str(d)}, f"{status}: {d}"
    c = new_candidate(0)
    dest = _files_dir(ctx, c)
    write_project(d.plan, dest)
    c["files"], c["project"] = dict(d.plan.files), str(dest)
    ctx.emit(Note(f"drafted {d.op_type} from template '{d.plan.template}' (category {d.plan.category}) "
                  f"in {d.seconds:.1f} s"))
    ctx.emit(FilesWritten(0, "draft", dict(d.plan.files), str(dest)))
    return {"candidates": [c]}, f"{d.op_type} from template '{d.plan.template}'"


def _fix(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    files = op_sources(Path(state["fix_project"]))
    if not files:
        return {"status": "error", "message": f"{state['fix_project']}: no op_host/ or op_kernel/ sources"}, "no sources"
    c = place(ctx, state, new_candidate(0), files, "draft")
    return {"candidates": [c]}, f"{len(files)} file(s) from {state['fix_project']}"


def _model_one(state: GraphState, ctx: Ctx, cid: int) -> Candidate:
    spec = state["spec"]
    c = new_candidate(cid)
    fmt = ctx.agent.reply_format
    if fmt == "auto":   # the DSL for tasks outside the offline drafter's templates (the plan has no template)
        fmt = "ascendc" if (state.get("plan") or {}).get("template") else "dsl"
    if fmt == "dsl":
        messages = dsl_draft_messages(ctx.task(spec["path"]), spec["op_name"])
    else:
        messages = draft_messages(ctx.task(spec["path"]), list(state.get("docs", [])), spec["op_name"], mode="project")
    text, history = ask(ctx, messages, 0, cid, "draft")
    c["history"] = history
    files, complaint = parse(text, spec["op_name"])
    if not files:
        c.update(phase="repair", repair_kind="parse", complaint=complaint)
        ctx.emit(Note(f"sample {cid + 1}: the reply could not be parsed: {complaint}", "warning"))
        return c
    return place(ctx, state, c, files, "draft")


def draft_node(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    mode = state.get("mode")
    if mode == "fix":
        return _fix(state, ctx)
    if ctx.offline:
        return _offline(state, ctx)
    k = max(1, int(ctx.agent.samples))
    if k == 1:
        cands = [_model_one(state, ctx, 0)]
    else:
        with ThreadPoolExecutor(max_workers=k) as pool:
            cands = list(pool.map(lambda i: _model_one(state, ctx, i), range(k)))
    parsed = sum(1 for c in cands if c["phase"] == "build")
    return {"candidates": cands}, f"{parsed}/{k} sample(s) parsed"
