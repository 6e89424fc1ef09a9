"""report: the final project and its report. The best candidate's project is copied to the run folder's
``final/`` and to the requested output folder with ``report.json`` (docs/report-schema.md); a Report
event carries the report. (RunFinished is sent by the driver once the graph has ended.) A profiled
report's traces and timeline pictures come along into the project's ``profile/`` folder, and the
report's ``artifacts`` name them there.

In fix mode the output is the user's own project: only its op sources are rewritten, and only when a
repaired version ranks above the original."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from agent_graph.events import Note, Report
from agent_graph.nodes.context import Ctx
from agent_graph.output_dir import replace_project
from agent_graph.state import GraphState
from bench_bridge.api import BenchReport


def _write_back(best: dict, dest: Path) -> None:
    for rel, text in best["files"].items():
        p = dest / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists() or p.read_text(errors="replace") != text:
            p.write_text(text)


PROFILE_DIR = "profile"


def _bring_artifacts(data: dict, final: Path, home: Path) -> None:
    """Copy the trace and timeline files the report names (in the round's run folder) to
    ``final/profile/``; the report then names them under ``home/profile/``, where the user finds them.
    A file gone missing is named as not written (None)."""
    arts = data.get("artifacts") or {}
    entries = [arts, *(arts.get("cases") or {}).values()]
    if not any(e.get(k) for e in entries for k in ("trace", "timeline_png")):
        return
    dest = final / PROFILE_DIR
    dest.mkdir(parents=True, exist_ok=True)
    moved: dict[str, str | None] = {}

    def bring(path: str | None) -> str | None:
        if not path:
            return None
        if path not in moved:
            src = Path(path)
            moved[path] = None
            if src.is_file():
                shutil.copy2(src, dest / src.name)
                moved[path] = str(home / PROFILE_DIR / src.name)
        return moved[path]

    for e in entries:
        for k in ("trace", "timeline_png"):
            e[k] = bring(e.get(k))
    arts["dir"] = str(home / PROFILE_DIR)


def _build_failure_report(state: GraphState, best: dict) -> dict:
    """The report of a candidate that never ran: not compiled, with its build (or guard) diagnostics."""
    spec = state["spec"]
    errors = [d for d in best.get("diagnostics") or [] if d.get("severity") == "error"]
    msg = f"the build of {spec['op_type']} failed" + (f": {errors[0].get('message', '')}" if errors else "")
    rep = BenchReport(task=spec["name"], task_format=spec["format"], path=spec["path"], backend="sim",
                      project=best["project"], compiled=False, correct=False,
                      build_diagnostics=list(best.get("diagnostics") or []), message=msg)
    return rep.to_dict()


def report_node(state: GraphState, ctx: Ctx) -> tuple[dict, str]:
    status = state.get("status") or "running"
    best = state.get("best")
    if status in ("unsupported", "invalid", "error") or not best:
        if status == "running":
            notes = [c.get("note", "") for c in state.get("candidates", []) if c.get("note")]
            return {"status": "failed", "message": notes[0] if notes else "no candidate could be built"}, "nothing built"
        return {}, status
    final = ctx.run_dir / "final"
    if final.exists():
        shutil.rmtree(final)
    shutil.copytree(best["project"], final)
    data = json.loads(Path(best["report_path"]).read_text()) if best.get("report_path") else None
    out = Path(state["output"])
    if data is None:
        data = _build_failure_report(state, best)
    fix = state.get("mode") == "fix"   # the user's own project gets its sources only; the profile stays in final/
    if data is not None:
        data["project"] = str(out)   # the same files as the round's project, where the user finds them
        _bring_artifacts(data, final, final.resolve() if fix else out.resolve())
        (final / "report.json").write_text(json.dumps(data, indent=2) + "\n")
    if fix:
        if best.get("round", 0) > 0:
            _write_back(best, out)
    else:
        shutil.rmtree(out / PROFILE_DIR, ignore_errors=True)   # an earlier run's profile: not this report's
        removed = replace_project(final, out, force=bool(state.get("replace_output")))
        if removed:
            ctx.emit(Note(f"replaced {len(removed)} op source(s) in {out} that kgen had not written (--force): "
                          + ", ".join(removed[:3]) + (" ..." if len(removed) > 3 else ""), "warning"))
    verified = best.get("verdict") == "verified"
    op = state["spec"]["op_type"]
    if verified:
        msg = f"{op} verified: {best.get('passed')}/{best.get('total')} cases correct (round {best.get('round')})"
    else:
        cand = next((c for c in state.get("candidates", []) if c.get("id") == best.get("id")), {})
        why = cand.get("note") or "not verified"
        msg = (f"{op} not verified: best candidate {'compiled' if best.get('compiled') else 'did not compile'}, "
               f"{best.get('passed', 0)}/{best.get('total', 0)} cases correct; {why}")
    if data is not None:
        ctx.emit(Report(data, str(out)))
    update = {"status": "verified" if verified else "failed", "message": msg, "project": str(out),
              "report": None}
    return update, msg
