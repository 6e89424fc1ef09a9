"""build: guards, then compile every candidate in phase "build" on the emulator: dtype combination 0, and
on a machine with more than one core every other combination at the same time (agent_graph.drafter.prebuild),
so the verify node finds them in the content-keyed build cache.

A guard finding or a compiler error sends the candidate to a repair round while build repairs are left
(and a model is there to do them); otherwise the candidate is finished as failed."""
from __future__ import annotations

import os
from pathlib import Path

from agent_graph.drafter.prebuild import build_all
from agent_graph.events import Diagnostics, Note
from agent_graph.guards import check_sources
from agent_graph.nodes.context import Ctx
from agent_graph.nodes.project_files import write_op_json
from agent_graph.state import Candidate, GraphState, in_phase, update_best
from bench_bridge.api import build_project, describe_project


def can_repair(ctx: Ctx, state: GraphState, c: Candidate, kind: str) -> bool:
    if ctx.offline:
        return False
    if kind in ("build", "guard"):
        return c.get("build_repairs", 0) < ctx.agent.build_repairs
    return c.get("correctness_repairs", 0) < ctx.agent.correctness_repairs


def send_to_repair(ctx: Ctx, state: GraphState, c: Candidate, kind: str, note: str) -> None:
    """Phase "repair" when the budget allows, else finished as failed with ``note``."""
    if can_repair(ctx, state, c, kind):
        c.update(phase="repair", repair_kind=kind)
    else:
        why = " (no model to repair it)" if ctx.offline else " (no repairs left)"
        c.update(phase="done", verdict="failed", note=note + why)


def _build_one(state: GraphState, ctx: Ctx, c: Candidate) -> str:
    rnd, sid = c["round"], c["id"]
    findings = check_sources(c["files"])
    if findings:
        items = [f.to_diagnostic() for f in findings]
        c["diagnostics"], c["compiled"] = items, False
        c["complaint"] = "; ".join(f.message for f in findings)
        ctx.folder.save_json(rnd, sid, "diagnostics.json", items)
        ctx.emit(Diagnostics(rnd, items))
        ctx.emit(Note(f"guard: {findings[0].message}", "warning"))
        send_to_repair(ctx, state, c, "guard", f"rejected by the guards: {findings[0].message}")
        return "rejected by the guards"
    project = Path(c["project"])
    op = describe_project(project)
    if op.ok and op.num_combos > 1 and (os.cpu_count() or 1) > 1:
        # every dtype combination at once on the free cores (the verify node then finds them in the cache)
        b = build_all(op)[0]
    else:
        b = build_project(op, 0) if op.ok else None
    diags = [d.to_dict() for d in (b.diagnostics if b is not None else op.diagnostics)]
    ctx.folder.save_json(rnd, sid, "diagnostics.json", diags)
    c["diagnostics"] = diags
    errors = [d for d in diags if d.get("severity") == "error"]
    if b is not None and b.ok:
        c["compiled"], c["phase"] = True, "verify"
        if op.op_type:
            write_op_json(op, project, state["spec"]["op_name"])
        return "compiled"
    c["compiled"] = False
    if not errors:
        diags.append({"severity": "error", "message": "the build failed", "file": str(project), "line": 0, "col": 0,
                      "code": "compile"})
        errors = diags[-1:]
    ctx.emit(Diagnostics(rnd, diags))
    send_to_repair(ctx, state, c, "build", f"the build failed: {errors[0].get('message', '')}")
    return f"{len(errors)} error(s)"


def build_node(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    cands = [dict(c) for c in state.get("candidates", [])]
    best = state.get("best")
    details = []
    for c in cands:
        if c.get("phase") != "build":
            continue
        ctx.check_cancel()
        details.append(_build_one(state, ctx, c))
        best = update_best(best, c)
    ok = sum(1 for c in cands if c.get("phase") == "verify")
    detail = details[0] if len(details) == 1 else f"{ok}/{len(details)} compiled"
    return {"candidates": cands, "best": best}, detail


__all__ = ["build_node", "can_repair", "send_to_repair", "in_phase"]
