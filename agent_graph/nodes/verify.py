"""verify: run every shape case of the task on each compiled candidate and compare with the PyTorch
reference (bench_bridge.bench: the reference runs in a child process, the kernel in the emulator).

One CaseResult event per case; the bench report is saved as the round's report.json. Wrong results go
to a correctness repair with, per failed case, where the output differs and by how much (and the guard's
reason when part of the output was never written). With profiling on, the same run models each case's
time, so the benchmark node has its figures without running again."""
from __future__ import annotations

import json
from pathlib import Path

from agent_graph.events import CaseResult, Note
from agent_graph.guards import unwritten_output
from agent_graph.nodes.build import send_to_repair
from agent_graph.nodes.context import Cancelled, Ctx, RunError
from agent_graph.state import Candidate, GraphState, update_best
from bench_bridge.api import BenchError, BenchEvent, BenchOptions, bench


def failures_of(report: dict) -> list[dict]:
    """Failed cases in the form the correctness-repair prompt takes (agent_graph.prompts.format_failure);
    an output the guards find partly unwritten carries that as its reason."""
    out = []
    for case in report.get("cases", []):
        if case.get("status") == "pass":
            continue
        f = {"case_id": case.get("case_id"), "status": case.get("status"), "message": case.get("message", ""),
             "params": {"input_shapes": case.get("input_shapes"), "dtypes": case.get("dtypes")}, "outputs": []}
        why = unwritten_output(case)
        for o in case.get("outputs") or []:
            if not o.get("passed"):
                d = {k: o.get(k) for k in ("name", "dtype", "shape", "mismatches", "total", "max_abs_error",
                                           "max_rel_error", "first_mismatch", "expected", "actual", "threshold", "reason")}
                if why and why.startswith(f"output {o.get('name')} "):
                    d["reason"] = f"{why} (want {o.get('expected')!r} there)"
                f["outputs"].append(d)
        if why:
            f["guard"] = why
        out.append(f)
    return out


def modelled_total(report: dict) -> float | None:
    perf = report.get("performance") or {}
    times = perf.get("modelled_us")
    return float(sum(times)) if times else None


def profile_dir(ctx: Ctx, c: Candidate) -> Path:
    """Where a profiled bench of candidate ``c`` writes its traces and timeline pictures: beside the round's
    report.json in the run folder (the report node copies the final candidate's into the project)."""
    return ctx.folder.round_dir(c["round"], c["id"]) / "profile"


def bench_candidate(state: GraphState, ctx: Ctx, project: Path, profile: bool, artifacts_dir: Path | None = None):
    def progress(ev: BenchEvent) -> None:
        ctx.check_cancel()      # raises out of bench: cancel between cases
        ctx.emit(Note(str(ev)))

    opts = BenchOptions(project=project.resolve(), timeout=ctx.agent.run_timeout, profile=profile,
                        artifacts_dir=artifacts_dir if profile else None)
    try:
        return bench(Path(state["spec"]["path"]), opts, on_event=progress)
    except BenchError as e:
        raise RunError(str(e)) from e


def _verify_one(state: GraphState, ctx: Ctx, c: Candidate) -> str:
    rep = bench_candidate(state, ctx, Path(c["project"]), ctx.agent.profile, profile_dir(ctx, c))
    data = json.loads(rep.to_json())
    c["report_path"] = str(ctx.folder.save_json(c["round"], c["id"], "report.json", data))
    total = len(data["cases"])
    for i, case in enumerate(data["cases"], 1):
        ctx.emit(CaseResult(i, total, str(case["case_id"]), case["status"], case.get("message", "")))
    c["cases"] = [{"case_id": k["case_id"], "status": k["status"], "message": k.get("message", "")} for k in data["cases"]]
    c["passed"], c["total"] = sum(k["status"] == "pass" for k in data["cases"]), total
    c["modelled_us"] = modelled_total(data)
    if not data["compiled"]:
        c["compiled"] = False
        c["diagnostics"] = data.get("build_diagnostics", [])
        send_to_repair(ctx, state, c, "build", data.get("message") or "the build failed")
        return data.get("message") or "build failed"
    if data["correct"]:
        c.update(phase="done", verdict="verified", note=f"{c['passed']}/{total} cases correct")
        return f"{c['passed']}/{total} cases correct"
    c["failures"] = failures_of(data)
    first = c["failures"][0] if c["failures"] else {}
    send_to_repair(ctx, state, c, "correctness",
                   f"{c['passed']}/{total} cases correct; case {first.get('case_id')}: {first.get('message', '')}")
    return f"{c['passed']}/{total} cases correct"


def verify_node(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    cands = [dict(c) for c in state.get("candidates", [])]
    best = state.get("best")
    details = []
    for c in cands:
        if c.get("phase") != "verify":
            continue
        ctx.check_cancel()
        details.append(_verify_one(state, ctx, c))
        best = update_best(best, c)
    if any(c.get("verdict") == "verified" for c in cands):
        for c in cands:   # pass@k: one verified sample ends the others' repairs
            if c.get("phase") in ("repair", "build"):
                c.update(phase="done", verdict="failed", note="stopped: another sample was verified")
    return {"candidates": cands, "best": best}, "; ".join(details)


__all__ = ["verify_node", "bench_candidate", "profile_dir", "failures_of", "Cancelled"]
