"""repair: ask the model to fix every candidate in phase "repair", in parallel threads.

  build / guard -> the diagnostics (or the guard's reasons) + docs for the APIs they name
  correctness   -> which cases failed, where the output differs, the error magnitude
  parse         -> the precise complaint about the previous reply's layout
A parsed reply replaces the files it names (the others are kept) and the candidate is built again in a
new round; a reply that still cannot be parsed after ``Ctx.max_parse_repairs`` tries ends the candidate."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from agent_graph import prompts
from agent_graph.drafter.dsl import find_program
from agent_graph.events import Note
from agent_graph.nodes.context import Ctx
from agent_graph.nodes.draft import place
from agent_graph.nodes.model_io import ask, parse, to_chat
from agent_graph.nodes.retrieve import names_in_diagnostics, search_docs
from agent_graph.state import Candidate, GraphState

REASONS = {"build": "build repair", "guard": "build repair", "correctness": "correctness repair", "parse": "parse repair"}


def _messages(state: GraphState, ctx: Ctx, c: Candidate):
    kind, history = c.get("repair_kind"), to_chat(c.get("history", []))
    if kind == "parse":
        return prompts.parse_repair_messages(history, c.get("complaint", ""))
    program = dsl_program(c)
    if program is not None:
        return prompts.dsl_repair_messages(history, program, list(c.get("failures", [])) if kind == "correctness" else [],
                                           list(c.get("diagnostics", [])))
    if kind == "correctness":
        return prompts.correctness_repair_messages(history, dict(c["files"]), list(c.get("failures", [])))
    docs = list(state.get("docs", []))
    if ctx.agent.retrieve:
        names = names_in_diagnostics(c.get("diagnostics", []))
        if names:
            docs = search_docs(names) + docs
    return prompts.build_repair_messages(history, dict(c["files"]), list(c.get("diagnostics", [])), docs)


def dsl_program(c: Candidate) -> str | None:
    """The tile DSL program the candidate's files were lowered from (the model's last reply), or None."""
    last = next((m["content"] for m in reversed(c.get("history", [])) if m["role"] == "assistant"), "")
    return find_program(last)


def _repair_one(state: GraphState, ctx: Ctx, c: Candidate) -> Candidate:
    kind = c.get("repair_kind", "build")
    if kind in ("build", "guard"):
        c["build_repairs"] = c.get("build_repairs", 0) + 1
    elif kind == "correctness":
        c["correctness_repairs"] = c.get("correctness_repairs", 0) + 1
    else:
        c["parse_repairs"] = c.get("parse_repairs", 0) + 1
    messages = _messages(state, ctx, c)
    old_files = dict(c.get("files", {}))
    c["round"] = c.get("round", 0) + 1
    text, history = ask(ctx, messages, c["round"], c["id"], "repair")
    c["history"] = history
    files, complaint = parse(text, state["spec"]["op_name"])
    if not files:
        if kind == "parse" and c["parse_repairs"] >= ctx.max_parse_repairs:
            c.update(phase="done", verdict="failed", note=f"the model's reply could not be parsed: {complaint}")
        else:
            c.update(phase="repair", repair_kind="parse", complaint=complaint)
        ctx.emit(Note(f"the reply could not be parsed: {complaint}", "warning"))
        return c
    return place(ctx, state, c, {**old_files, **files}, REASONS.get(kind, "build repair"))


def repair_node(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    cands = [dict(c) for c in state.get("candidates", [])]
    todo = [c for c in cands if c.get("phase") == "repair"]
    kinds = sorted({c.get("repair_kind", "") for c in todo})
    ctx.check_cancel()
    if len(todo) == 1:
        _repair_one(state, ctx, todo[0])
    elif todo:
        with ThreadPoolExecutor(max_workers=len(todo)) as pool:
            list(pool.map(lambda c: _repair_one(state, ctx, c), todo))
    rounds = ", ".join(f"round {c['round']}" for c in todo)
    return {"candidates": cands}, f"{'/'.join(kinds)} repair: {rounds}"
